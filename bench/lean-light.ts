/**
 * docs/issues.md #42 ("Lean and light") in one run: `npm run build && npm run bench:lean`.
 *
 * Starts this app's production build (PGlite, `npm start`'s command, bench/perf/setup.ts startApp) and
 * Next's floor (bench/floor-app: a trivial prerendered page, `next start`), then for each of `--rounds`
 * rounds, interleaved (floor, then Hush):
 * - Landing: req/s of Hush's `/` vs the floor's `/` (20 keep-alive connections for `--seconds`, no
 *   Accept-Encoding), and the landing HTML's bytes: raw, gzip -9, brotli.
 * - First-load JS: the module scripts the HTML of Hush's `/chat` (a visitor), of Hush's `/termsofservice` (its
 *   trivial page: the site's layout, no chat code; the reference of docs/issues.md #12) and of the floor's `/`
 *   reference, gzipped -9 (as bench/first-load-js.mjs counts them); goal: /chat ≤ /termsofservice + 40 KB.
 * - A/B within the build: the same landing with HUSH_FAST_PATH=0 (a second instance, everything through
 *   Next and proxy.ts, as before lib/server/static-landing.ts), measured in the same rounds.
 * Prints the median of the rounds and each round. Ports from PERF_PORT_BASE (default 5851; bench/perf/setup.ts).
 *
 * Options: --rounds 3 --seconds 4 --concurrency 20
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync, brotliCompressSync } from "node:zlib";
import { median, throughput } from "./perf/client";
import { stopAll, waitFor } from "./perf/processes";
import { PORT, ROOT, appEnv, buildFloorApp, seed, startApp, startFloorApp } from "./perf/setup";
import { option } from "./perf/options";

const ROUNDS = Number(option("rounds", "3"));
const SECONDS = Number(option("seconds", "4"));
const CONCURRENCY = Number(option("concurrency", "20"));

/** Gzip -9 bytes of the module scripts a page's HTML references (noModule scripts not counted). */
async function firstLoadGz(base: string, pagePath: string): Promise<number> {
  const html = await (await fetch(base + pagePath)).text();
  const srcs = [...html.matchAll(/<script\b([^>]*)>/g)]
    .map((m) => m[1]!)
    .filter((a) => !/\bnoModule\b/i.test(a))
    .map((a) => /\bsrc="([^"]+)"/.exec(a)?.[1])
    .filter((s): s is string => Boolean(s));
  let gz = 0;
  for (const src of srcs) gz += gzipSync(Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer()), { level: 9 }).length;
  return gz;
}

async function htmlSizes(base: string) {
  const body = Buffer.from(await (await fetch(base + "/")).arrayBuffer());
  const rsc = [...body.toString("utf8").matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).join("");
  return { raw: body.length, gz: gzipSync(body, { level: 9 }).length, br: brotliCompressSync(body).length, inline: Buffer.byteLength(rsc) };
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("No production build: run `npm run build` first.");
  buildFloorApp();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hush-lean-"));
  const env = appEnv(PORT.lite, path.join(tmp, "lite"), "");
  await seed(env, false);
  const hushPid = startApp("hush-pglite", PORT.lite, env);
  const viaNextEnv = { ...appEnv(PORT.pg, path.join(tmp, "via-next"), ""), HUSH_FAST_PATH: "0" };
  await seed(viaNextEnv, false);
  const viaNextPid = startApp("hush-via-next", PORT.pg, viaNextEnv);
  const floorPid = startFloorApp(PORT.floor, { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" });
  const hush = `http://127.0.0.1:${PORT.lite}`;
  const floor = `http://127.0.0.1:${PORT.floor}`;
  await waitFor(`${floor}/`);
  await waitFor(`${hush}/api/health`);
  await waitFor(`http://127.0.0.1:${PORT.pg}/api/health`);
  const page = (port: number) => ({ port, method: "GET" as const, path: "/", done: "</html>" });
  // Warm both (JIT, caches) before the timed rounds.
  await throughput(page(PORT.floor), floorPid, CONCURRENCY, 1);
  await throughput(page(PORT.lite), hushPid, CONCURRENCY, 1);
  await throughput(page(PORT.pg), viaNextPid, CONCURRENCY, 1);

  const rows: { floorRps: number; rps: number; ratio: number; viaNext: number; floorJs: number; termsJs: number; chatJs: number; html: Awaited<ReturnType<typeof htmlSizes>> }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const f = await throughput(page(PORT.floor), floorPid, CONCURRENCY, SECONDS);
    const h = await throughput(page(PORT.lite), hushPid, CONCURRENCY, SECONDS);
    const n = await throughput(page(PORT.pg), viaNextPid, CONCURRENCY, SECONDS);
    const floorJs = await firstLoadGz(floor, "/");
    const chatJs = await firstLoadGz(hush, "/chat");
    const termsJs = await firstLoadGz(hush, "/termsofservice");
    rows.push({ floorRps: f.rps, rps: h.rps, ratio: h.rps / f.rps, viaNext: n.rps / f.rps, floorJs, termsJs, chatJs, html: await htmlSizes(hush) });
    console.error(`round ${round}: floor ${f.rps.toFixed(0)} req/s, landing ${h.rps.toFixed(0)} req/s (${(h.rps / f.rps).toFixed(2)}×), through Next ${n.rps.toFixed(0)} req/s (${(n.rps / f.rps).toFixed(2)}×)`);
  }
  const kb = (n: number) => (n / 1024).toFixed(1);
  const m = (pick: (r: (typeof rows)[number]) => number) => median(rows.map(pick));
  const each = (pick: (r: (typeof rows)[number]) => number, fmt: (n: number) => string) => rows.map((r) => fmt(pick(r))).join(" / ");
  console.log(`\n#42 Lean and light: ${ROUNDS} rounds, interleaved (floor then Hush), medians; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log(`Landing req/s: floor ${m((r) => r.floorRps).toFixed(0)}, Hush ${m((r) => r.rps).toFixed(0)}, ratio ${m((r) => r.ratio).toFixed(2)}× (goal ≥ 0.8×; rounds ${each((r) => r.ratio, (n) => n.toFixed(2))})`);
  console.log(`Landing req/s with HUSH_FAST_PATH=0 (through Next and proxy.ts): ratio ${m((r) => r.viaNext).toFixed(2)}× (rounds ${each((r) => r.viaNext, (n) => n.toFixed(2))})`);
  const h = rows[rows.length - 1]!.html;
  console.log(`Landing HTML: ${h.raw} bytes raw (goal ≤ 40960), ${h.gz} gzip -9, ${h.br} brotli; inline scripts (RSC payload, JSON-LD) ${h.inline} bytes`);
  console.log(
    `First-load JS gz: Hush /chat ${kb(m((r) => r.chatJs))} KB, /termsofservice ${kb(m((r) => r.termsJs))} KB: ` +
      `difference ${kb(m((r) => r.chatJs - r.termsJs))} KB (goal ≤ 40 KB); against the floor app's / (${kb(m((r) => r.floorJs))} KB) ${kb(m((r) => r.chatJs - r.floorJs))} KB`,
  );
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
