/**
 * Issue 12's goals in one run: `npm run build && npm run bench:perf`.
 *
 * Starts a zero-delay fake model (bench/perf/fake-llm.mjs), the bare Node proxy of it that serves as
 * the reference (bench/perf/bare-proxy.mjs), and two instances of this app's production build wired to
 * the same model: one on embedded PGlite, one on PostgreSQL (a throwaway database on BENCH_POSTGRES_URL,
 * default postgresql://root@127.0.0.1:5432/postgres; skipped when unreachable). Then, for each of 3
 * rounds, measures every reference and its Hush counterpart one after the other (interleaved, so a
 * machine busy with other work weighs on both alike) and prints, per goal: reference, Hush and the
 * ratio (median of the rounds, with the range of the rounds' ratios).
 *
 * Throughput: a bounded client (`--concurrency` connections, keep-alive) for `--seconds` per target;
 * CPU per request: the server's process tree (utime+stime from /proc) over that window divided by the
 * requests it completed. TTFT: sequential requests, time to the first byte of the first token.
 * History: the route over HTTP vs the same rows read with one raw SQL statement over node-postgres.
 *
 * Options: --rounds 3 --seconds 4 --concurrency 16 --ttft 30 --only visitor,signed,history,landing,wait
 * PERF_CPU_PROF=dir writes a V8 CPU profile of each app instance into dir (node --cpu-prof).
 * Ports 5851-5855 (override with PERF_PORT_BASE).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1]! : fallback;
};
const ROUNDS = Number(opt("rounds", "3"));
const SECONDS = Number(opt("seconds", "4"));
const CONCURRENCY = Number(opt("concurrency", "16"));
const TTFT_N = Number(opt("ttft", "30"));
const ONLY = new Set(opt("only", "visitor,signed,history,landing,wait").split(","));
const BASE = Number(process.env.PERF_PORT_BASE ?? 5851);
const PORT = { llm: BASE, bare: BASE + 1, lite: BASE + 2, pg: BASE + 3 };
const MASTER_KEY = randomBytes(32).toString("base64");
const PG_SERVER = process.env.BENCH_POSTGRES_URL ?? "postgresql://root@127.0.0.1:5432/postgres";
const ROOT = path.resolve(import.meta.dirname, "../..");

// ---------------------------------------------------------------------------------------------------
// Processes

const children: ChildProcess[] = [];

function start(name: string, cmd: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  child.on("exit", (code, signal) => {
    if (code && !shuttingDown) console.error(`[${name}] exited with ${code ?? signal}\n${err}`);
  });
  children.push(child);
  return child;
}

let shuttingDown = false;
async function stopAll() {
  shuttingDown = true;
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once("exit", () => resolve());
          c.kill("SIGTERM");
          setTimeout(() => c.kill("SIGKILL"), 10_000).unref();
        }),
    ),
  );
}

async function waitFor(url: string, ms = 120_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${url}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU time (ms) of a process and all its descendants, from /proc (Linux). */
function treeCpuMs(pid: number): number {
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  const visit = (p: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / tick;
      for (const t of fs.readdirSync(`/proc/${p}/task`)) {
        const kids = fs.readFileSync(`/proc/${p}/task/${t}/children`, "utf8").trim();
        for (const k of kids ? kids.split(" ") : []) visit(Number(k));
      }
    } catch {
      // gone
    }
  };
  visit(pid);
  return total;
}

// ---------------------------------------------------------------------------------------------------
// HTTP client

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

interface Target {
  port: number;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Text whose arrival marks the first token. */
  first?: string;
  /** Text the complete answer must contain. */
  done?: string;
}

interface Outcome {
  ok: boolean;
  firstMs: number;
  totalMs: number;
}

function send(t: Target): Promise<Outcome> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const headers: Record<string, string> = { ...t.headers };
    if (t.body !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = String(Buffer.byteLength(t.body));
    }
    const req = http.request({ host: "127.0.0.1", port: t.port, method: t.method, path: t.path, headers, agent }, (res) => {
      let seen = "";
      let firstMs = NaN;
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        if (t.first || t.done) seen += d;
        if (Number.isNaN(firstMs) && (!t.first || seen.includes(t.first))) firstMs = performance.now() - t0;
      });
      res.on("end", () =>
        resolve({ ok: res.statusCode === 200 && (!t.done || seen.includes(t.done)), firstMs, totalMs: performance.now() - t0 }),
      );
      res.on("error", () => resolve({ ok: false, firstMs, totalMs: performance.now() - t0 }));
    });
    req.on("error", () => resolve({ ok: false, firstMs: NaN, totalMs: performance.now() - t0 }));
    req.end(t.body);
  });
}

/** Requests per second with `concurrency` loops for `seconds`, and CPU ms per request of `pid`'s tree. */
async function throughput(t: Target, pid: number, concurrency = CONCURRENCY, seconds = SECONDS) {
  const end = performance.now() + seconds * 1000;
  let ok = 0;
  let failed = 0;
  const cpu0 = treeCpuMs(pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const r = await send(t);
        if (r.ok) ok++;
        else failed++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = treeCpuMs(pid) - cpu0;
  if (failed) console.error(`  ! ${failed} failed requests to :${t.port}${t.path}`);
  return { rps: ok / elapsed, cpuPerReq: cpu / Math.max(1, ok + failed) };
}

async function ttft(t: Target, n = TTFT_N) {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await send(t);
    if (!r.ok) throw new Error(`TTFT request to :${t.port}${t.path} failed`);
    xs.push(r.firstMs);
  }
  return median(xs);
}

/** p50 latency of `probe`, sent one at a time, while `load` runs at `concurrency` for `seconds`. */
async function latencyUnderLoad(probe: Target, load: Target, concurrency = 8, seconds = SECONDS) {
  const end = performance.now() + seconds * 1000;
  const lat: number[] = [];
  const loops = Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) await send(load);
  });
  await sleep(300);
  while (performance.now() < end - 200) {
    lat.push((await send(probe)).totalMs);
    await sleep(5);
  }
  await Promise.all(loops);
  return { p50: quantile(lat, 0.5), p95: quantile(lat, 0.95) };
}

function quantile(xs: number[], q: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}
const median = (xs: number[]) => quantile(xs, 0.5);

// ---------------------------------------------------------------------------------------------------
// Setup

interface App {
  pid: number;
  port: number;
  cookie: string;
}

function appEnv(port: number, dataDir: string, databaseUrl: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: "",
    ENCRYPTION_MASTER_KEY: MASTER_KEY,
    NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789abcdef0123456789",
    LLM_BASE_URL: `http://127.0.0.1:${PORT.llm}/v1`,
    LLM_API_KEY: "bench",
    GROQ_API_KEY: "",
    QUOTA_VISITOR_PER_DAY: "1000000000",
    QUOTA_FREE_PER_DAY: "1000000000",
    QUOTA_PRO_PER_DAY: "1000000000",
  };
}

/** Migrate, create a user and a session; for PostgreSQL also 60 saved chats and one of 20 messages. */
async function seed(env: Record<string, string>, withHistory: boolean) {
  Object.assign(process.env, env, { NODE_ENV: "test" });
  const { resetConfigForTests } = await import("@/lib/config");
  resetConfigForTests();
  const { getDb, closeDb } = await import("@/lib/db/client");
  const { hashSessionToken } = await import("@/lib/auth/session-store");
  const { sessionCookieName } = await import("@/lib/auth/cookies");
  const db = await getDb();
  const user = await db.user.create({ data: { email: `bench-${randomBytes(4).toString("hex")}@example.com` } });
  const token = randomBytes(32).toString("base64url");
  await db.session.create({
    data: { sessionToken: hashSessionToken(token), userId: user.id, expires: new Date(Date.now() + 86_400_000) },
  });
  let longChat = "";
  if (withHistory) {
    const { createChat } = await import("@/lib/db/queries");
    for (let i = 0; i < 60; i++) {
      await createChat({
        userId: user.id,
        title: `Chat number ${i} about something`,
        messages: [
          { role: "user", content: `Question ${i} `.repeat(20) },
          { role: "assistant", content: `Answer ${i} `.repeat(80) },
        ],
      });
    }
    const messages = Array.from({ length: 20 }, (_, i) => ({
      role: (i % 2 ? "assistant" : "user") as "user" | "assistant",
      content: (i % 2 ? "An answer of a few sentences. " : "A question. ").repeat(i % 2 ? 20 : 4),
    }));
    longChat = (await createChat({ userId: user.id, title: "A twenty-message chat", messages })).chatId;
  }
  await closeDb();
  return { userId: user.id, cookie: `${sessionCookieName()}=${token}`, longChat };
}

function startApp(name: string, port: number, env: Record<string, string>): number {
  const prof = process.env.PERF_CPU_PROF;
  const node = prof ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(prof, name)}`] : [];
  const child = start(name, process.execPath, [...node, "node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], env);
  return child.pid!;
}

// ---------------------------------------------------------------------------------------------------
// Report

interface Row {
  goal: string;
  unit: string;
  /** "min": Hush/reference must be at least `bound`; "max": at most. */
  kind: "min" | "max" | "info";
  bound?: number;
  ref: number[];
  hush: number[];
}

const rows = new Map<string, Row>();
function record(key: string, meta: Omit<Row, "ref" | "hush">, ref: number, hush: number) {
  const row = rows.get(key) ?? { ...meta, ref: [], hush: [] };
  row.ref.push(ref);
  row.hush.push(hush);
  rows.set(key, row);
}

function printTable() {
  const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const lines = [
    "| Goal | Reference | Hush | Ratio (median; rounds) | Met |",
    "|---|---|---|---|---|",
  ];
  for (const r of rows.values()) {
    const ratios = r.hush.map((h, i) => h / r.ref[i]!);
    const m = median(ratios);
    const met = r.kind === "info" ? "—" : (r.kind === "min" ? m >= r.bound! : m <= r.bound!) ? "yes" : "no";
    lines.push(
      `| ${r.goal} | ${fmt(median(r.ref))} ${r.unit} | ${fmt(median(r.hush))} ${r.unit} | ${m.toFixed(2)}× (${ratios
        .map((x) => x.toFixed(2))
        .join(", ")}) | ${met} |`,
    );
  }
  console.log(lines.join("\n"));
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  if (!fs.existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("No production build: run `npm run build` first.");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hush-perf-"));

  start("fake-llm", process.execPath, ["bench/perf/fake-llm.mjs", "--port", String(PORT.llm)]);
  const barePid = start("bare-proxy", process.execPath, ["bench/perf/bare-proxy.mjs", "--port", String(PORT.bare), "--upstream", `http://127.0.0.1:${PORT.llm}`]).pid!;

  // PostgreSQL: a throwaway database, dropped at the end.
  let pgUrl: string | null = null;
  let pgName: string | null = null;
  try {
    const c = new pg.Client({ connectionString: PG_SERVER });
    await c.connect();
    pgName = `hush_bench_${randomBytes(4).toString("hex")}`;
    await c.query(`CREATE DATABASE ${pgName}`);
    await c.end();
    const u = new URL(PG_SERVER);
    u.pathname = `/${pgName}`;
    pgUrl = u.toString();
  } catch (error) {
    console.error(`PostgreSQL unavailable at ${PG_SERVER} (${(error as Error).message}); its rows are skipped.`);
  }

  const liteEnv = appEnv(PORT.lite, path.join(tmp, "lite"), "");
  const liteSeed = await seed(liteEnv, false);
  const pgEnv = pgUrl ? appEnv(PORT.pg, path.join(tmp, "pg"), pgUrl) : null;
  const pgSeed = pgEnv ? await seed(pgEnv, true) : null;

  const lite: App = { pid: startApp("hush-pglite", PORT.lite, liteEnv), port: PORT.lite, cookie: liteSeed.cookie };
  const pgApp: App | null = pgEnv ? { pid: startApp("hush-postgres", PORT.pg, pgEnv), port: PORT.pg, cookie: pgSeed!.cookie } : null;
  await waitFor(`http://127.0.0.1:${PORT.llm}/health`);
  await waitFor(`http://127.0.0.1:${PORT.bare}/health`);
  await waitFor(`http://127.0.0.1:${PORT.lite}/perf-floor`);
  if (pgApp) await waitFor(`http://127.0.0.1:${PORT.pg}/perf-floor`);

  const chatBody = JSON.stringify({
    messages: [{ role: "user", content: "How fast can a private chat be?" }],
    model: "llama3-8b-8192",
    file: null,
    chat_id: null,
    save_chat: false,
  });
  // Since the vault (issue 8) chat_user stores nothing even with save_chat: the browser stores the
  // sealed turn with a second request (/api/ns/chat_save), which this single-request harness does not
  // send. The "saving" figures below therefore measure chat_user alone; bench/load.ts does both.
  const savingBody = JSON.stringify({ ...JSON.parse(chatBody), save_chat: true });
  const sse = { accept: "text/event-stream" };
  const bare: Target = { port: PORT.bare, method: "POST", path: "/chat", body: chatBody, first: "Hello", done: "[DONE]" };
  const visitor: Target = { port: PORT.lite, method: "POST", path: "/api/ns/chat", headers: sse, body: chatBody, first: "Hello", done: "event: done" };
  const signed = (app: App): Target => ({
    port: app.port,
    method: "POST",
    path: "/api/ns/chat_user",
    headers: { ...sse, cookie: app.cookie },
    body: savingBody,
    first: "Hello",
    done: "event: done",
  });
  const page = (port: number, p: string): Target => ({ port, method: "GET", path: p, done: "</html>" });

  // Warm-up: JIT, connection pools, the first PGlite and Prisma queries.
  const warm = [
    bare,
    ...(ONLY.has("visitor") ? [visitor] : []),
    ...(ONLY.has("signed") || ONLY.has("wait") ? [signed(lite), ...(pgApp ? [signed(pgApp)] : [])] : []),
    ...(ONLY.has("landing") || ONLY.has("wait") ? [page(PORT.lite, "/"), page(PORT.lite, "/perf-floor")] : []),
  ];
  for (const t of warm) {
    for (let i = 0; i < 20; i++) await send(t);
    await throughput(t, t.port === PORT.bare ? barePid : lite.pid, 4, 1);
  }

  const pool = pgUrl ? new pg.Pool({ connectionString: pgUrl, max: 2 }) : null;

  for (let round = 1; round <= ROUNDS; round++) {
    console.error(`round ${round} of ${ROUNDS}…`);
    if (ONLY.has("visitor")) {
      const b = await throughput(bare, barePid);
      const v = await throughput(visitor, lite.pid);
      record("v-rps", { goal: "Visitor chat throughput, zero-delay model (≥ 0.5×)", unit: "req/s", kind: "min", bound: 0.5 }, b.rps, v.rps);
      record("v-cpu", { goal: "Visitor chat CPU per request (issue: 6–7× before)", unit: "ms", kind: "info" }, b.cpuPerReq, v.cpuPerReq);
      const bt = await ttft(bare);
      const vt = await ttft(visitor);
      record("v-ttft", { goal: "Visitor chat TTFT p50, 1 concurrent (≤ 2×)", unit: "ms", kind: "max", bound: 2 }, bt, vt);
    }
    if (ONLY.has("signed")) {
      const b = await throughput(bare, barePid);
      if (pgApp) {
        const s = await throughput(signed(pgApp), pgApp.pid);
        record("s-pg-rps", { goal: "Signed-in chat + saving, PostgreSQL: throughput (≥ 0.35×)", unit: "req/s", kind: "min", bound: 0.35 }, b.rps, s.rps);
        record("s-pg-cpu", { goal: "Signed-in chat + saving, PostgreSQL: CPU per request", unit: "ms", kind: "info" }, b.cpuPerReq, s.cpuPerReq);
      }
      const l = await throughput(signed(lite), lite.pid);
      record("s-lite-rps", { goal: "Signed-in chat + saving, PGlite: throughput", unit: "req/s", kind: "info" }, b.rps, l.rps);
      record("s-lite-cpu", { goal: "Signed-in chat + saving, PGlite: CPU per request", unit: "ms", kind: "info" }, b.cpuPerReq, l.cpuPerReq);
      const bt = await ttft(bare);
      if (pgApp) {
        record("s-pg-ttft", { goal: "Signed-in chat + saving, PostgreSQL: TTFT p50 (≤ 3×)", unit: "ms", kind: "max", bound: 3 }, bt, await ttft(signed(pgApp)));
      }
      record("s-lite-ttft", { goal: "Signed-in chat + saving, PGlite: TTFT p50", unit: "ms", kind: "info" }, bt, await ttft(signed(lite)));
    }
    if (ONLY.has("wait") && pgApp) {
      // A request that needs no SQL (the static floor page), sent while 8 signed-in chats with saving
      // run: on PostgreSQL the SQL runs in another process; on PGlite it shares the server's process.
      const probePg = await latencyUnderLoad(page(PORT.pg, "/perf-floor"), signed(pgApp));
      const probeLite = await latencyUnderLoad(page(PORT.lite, "/perf-floor"), signed(lite));
      record("wait", { goal: "PGlite: a no-SQL request's p95 latency during saving load, vs PostgreSQL", unit: "ms", kind: "max", bound: 1.5 }, probePg.p95, probeLite.p95);
    }
    if (ONLY.has("history") && pool && pgApp && pgSeed) {
      const N = 40;
      const raw1: number[] = [];
      const http1: number[] = [];
      const raw2: number[] = [];
      const http2: number[] = [];
      const list = { ...page(PORT.pg, "/api/ns/chat_history?limit=50"), headers: { cookie: pgApp.cookie }, done: "chat_history" };
      const open = { ...page(PORT.pg, `/api/ns/chat_history/${pgSeed.longChat}`), headers: { cookie: pgApp.cookie }, done: "messages" };
      for (let i = 0; i < N; i++) {
        let t = performance.now();
        const r = await pool.query(
          "SELECT id::text AS id, title_ciphertext, last_updated FROM chats WHERE user_id = $1 ORDER BY last_updated DESC, id DESC LIMIT 51",
          [pgSeed.userId],
        );
        raw1.push(performance.now() - t);
        if (r.rowCount! < 51) throw new Error("history seed missing");
        const h = await send(list);
        if (!h.ok) throw new Error("history request failed");
        http1.push(h.totalMs);
        t = performance.now();
        await pool.query(
          `SELECT c.id, c.title_ciphertext, c.last_updated, m.position, m.role, m.content_ciphertext, m.attachment_ciphertext, m.created_at
           FROM chats c JOIN messages m ON m.chat_id = c.id WHERE c.id = $1 AND c.user_id = $2 ORDER BY m.position`,
          [pgSeed.longChat, pgSeed.userId],
        );
        raw2.push(performance.now() - t);
        const o = await send(open);
        if (!o.ok) throw new Error("open-chat request failed");
        http2.push(o.totalMs);
      }
      record("h-list", { goal: "History first page of 50, PostgreSQL, vs raw SQL (≤ 3×)", unit: "ms", kind: "max", bound: 3 }, median(raw1), median(http1));
      record("h-open", { goal: "Opening a 20-message chat, PostgreSQL, vs raw SQL (≤ 3×)", unit: "ms", kind: "max", bound: 3 }, median(raw2), median(http2));
    }
    if (ONLY.has("landing")) {
      const floor = await throughput(page(PORT.lite, "/perf-floor"), lite.pid);
      const landing = await throughput(page(PORT.lite, "/"), lite.pid);
      record("landing", { goal: "Landing page req/s vs the trivial prerendered page (≥ 0.8×)", unit: "req/s", kind: "min", bound: 0.8 }, floor.rps, landing.rps);
    }
  }

  const sizes = await Promise.all(["/perf-floor", "/"].map(async (p) => (await fetch(`http://127.0.0.1:${PORT.lite}${p}`).then((r) => r.text())).length));
  console.log(
    `\nbench/perf: ${ROUNDS} rounds, interleaved; ${CONCURRENCY} connections × ${SECONDS} s per throughput run; TTFT median of ${TTFT_N}; ` +
      `${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}; HTML bytes /perf-floor ${sizes[0]}, / ${sizes[1]}\n`,
  );
  printTable();

  await pool?.end();
  await stopAll();
  if (pgName) {
    const c = new pg.Client({ connectionString: PG_SERVER });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await c.end();
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
