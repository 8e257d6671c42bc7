#!/usr/bin/env node
/**
 * Every goal of docs/issues.md #12 in one table (goal, reference, Hush, ratio, met), from one run:
 *
 *   npm run build && npm run bench:all-goals          # about 8 minutes on 2 cores
 *
 * It runs, one after the other, on the production build in `.next`:
 * 1. bench/perf/run.ts (npm run bench:perf): the server goals against a bare Node proxy, raw SQL and
 *    a trivial page of Next's floor app (bench/floor-app), interleaved, 3 rounds (ports 5851-5855);
 * 2. `npm start`'s server.mjs on port 5860 (embedded PGlite, no keys), then bench/first-load-js.mjs for /chat and
 *    /termsofservice (the trivial-page floor: no chat code) and bench/lighthouse.mjs for /, /pricing,
 *    /termsofservice and /chat (mobile, median of 3);
 * 3. bench/chat-page.mjs: a 4,000-token answer streaming into an open 1,000-message chat in Chromium,
 *    medians of 3 rounds (ports 5650+).
 * Each step also prints its own report above the table. Chromium: /usr/bin/chromium (CHROMIUM_PATH).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const APP_PORT = Number(process.env.ALL_GOALS_APP_PORT ?? 5860);
const tmp = mkdtempSync(path.join(os.tmpdir(), "hush-all-goals-"));
const out = (name) => path.join(tmp, name);
const readJson = (name) => JSON.parse(readFileSync(out(name), "utf8"));

/** Run a command to completion with inherited output; rejects on a non-zero exit. */
function run(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} ${args.join(" ")} exited with ${code}`))));
  });
}

/** `next start` of this build on embedded defaults (PGlite in a temporary folder, a model that is never called). */
async function startApp() {
  const env = {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    APP_URL: `http://localhost:${APP_PORT}`,
    DATA_DIR: out("data"),
    NEXTAUTH_SECRET: randomBytes(32).toString("hex"),
    LLM_BASE_URL: "http://127.0.0.1:9/v1",
    LLM_API_KEY: "unused",
  };
  // As `npm start` runs it (server.mjs, docs/issues.md #24).
  const child = spawn(process.execPath, ["--require", "./deploy/http-timeouts.cjs", "server.mjs", "-p", String(APP_PORT)], { cwd: ROOT, stdio: "ignore", env: { ...process.env, ...env } });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://localhost:${APP_PORT}/`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill("SIGTERM");
  throw new Error(`next start on port ${APP_PORT} did not answer`);
}

if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("No production build: run `npm run build` first.");
const started = new Date();
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(" ");
const loadAtStart = load();

try {
  console.log("== 1/3 server goals (bench/perf/run.ts) ==");
  await run(TSX, ["--conditions=react-server", "bench/perf/run.ts"], { PERF_JSON: out("perf.json") });

  console.log("\n== 2/3 first-load JavaScript and Lighthouse (next start on port " + APP_PORT + ") ==");
  const app = await startApp();
  try {
    const base = `http://localhost:${APP_PORT}`;
    await run(process.execPath, ["bench/first-load-js.mjs", "--base", base, "--path", "/chat", "--json", out("fl-chat.json")]);
    await run(process.execPath, ["bench/first-load-js.mjs", "--base", base, "--path", "/termsofservice", "--json", out("fl-floor.json")]);
    await run(process.execPath, ["bench/lighthouse.mjs", "--base", base, "--pages", "/,/pricing,/termsofservice,/chat", "--runs", "3", "--diag", "0", "--json", out("lh.json")]);
  } finally {
    app.kill("SIGTERM");
  }

  console.log("\n== 3/3 chat page while streaming (bench/chat-page.mjs) ==");
  await run(TSX, ["bench/chat-page.mjs", "--rounds", "3", "--json", out("chat-page.json")]);

  // ---- one table ----
  const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const lines = ["| Goal | Reference | Hush | Ratio (median; rounds) | Met |", "|---|---|---|---|---|"];
  for (const r of readJson("perf.json")) {
    // Added milliseconds per turn (docs/issues.md #24): a difference, printed by bench/perf/run.ts itself.
    if (r.kind === "diff") continue;
    const met = r.kind === "info" ? "—" : (r.kind === "min" ? r.ratio >= r.bound : r.ratio <= r.bound) ? "yes" : "no";
    lines.push(`| ${r.goal} | ${fmt(r.ref)} ${r.unit} | ${fmt(r.hush)} ${r.unit} | ${r.ratio.toFixed(2)}× (${r.rounds.map((x) => x.toFixed(2)).join(", ")}) | ${met} |`);
  }
  const chat = readJson("chat-page.json").medians;
  const perRound = (key) => readJson("chat-page.json").runs.map((r) => r[key].toFixed(0)).join(", ");
  lines.push(`| Chat page: last messages of a 1,000-message chat shown after the click (< 300 ms) | 300 ms | ${chat.openMs.toFixed(0)} ms | ${(chat.openMs / 300).toFixed(2)}× of the bound (${perRound("openMs")} ms) | ${chat.openMs < 300 ? "yes" : "no"} |`);
  lines.push(`| Chat page: main-thread tasks > 50 ms while a 4,000-token answer streams (0) | 0 | ${chat.longTasks.toFixed(0)} (longest ${chat.longestTask.toFixed(0)} ms) | — (${perRound("longTasks")}) | ${chat.longTasks === 0 ? "yes" : "no"} |`);
  lines.push(`| Chat page: keydown-to-paint p95 while streaming (≤ 50 ms) | 50 ms | ${chat.keyP95.toFixed(0)} ms | ${(chat.keyP95 / 50).toFixed(2)}× of the bound (${perRound("keyP95")} ms) | ${chat.keyP95 <= 50 ? "yes" : "no"} |`);
  const flChat = readJson("fl-chat.json").gzipKB;
  const flFloor = readJson("fl-floor.json").gzipKB;
  lines.push(`| /chat first-load JS above the trivial-page floor, gzip (≤ +40 KB) | ${flFloor.toFixed(1)} KB (/termsofservice) | ${flChat.toFixed(1)} KB | +${(flChat - flFloor).toFixed(1)} KB | ${flChat - flFloor <= 40 ? "yes" : "no"} |`);
  for (const p of readJson("lh.json")) {
    lines.push(`| Lighthouse mobile performance ${p.path} (≥ 95, median of 3) | 95 | ${p.performance} | — (${p.runs.join(", ")}) | ${p.performance >= 95 ? "yes" : "no"} |`);
  }
  console.log(
    `\nbench/all-goals: ${started.toISOString().slice(0, 16).replace("T", " ")}–${new Date().toISOString().slice(11, 16)} UTC; ` +
      `${os.cpus().length} cores; load average at the start ${loadAtStart}, at the end ${load()}\n`,
  );
  console.log(lines.join("\n"));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
