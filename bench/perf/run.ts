/**
 * docs/issues.md #12's and #24's server goals in one run: `npm run build && npm run bench:perf`.
 *
 * Starts a zero-delay fake model (bench/perf/fake-llm.mjs), the bare Node proxy of it that serves as
 * the reference (bench/perf/bare-proxy.mjs), and three instances of this app's production build, each
 * started with `npm start`'s own command (bench/perf/setup.ts startApp): one on embedded PGlite, one on
 * PostgreSQL (a throwaway database on BENCH_POSTGRES_URL, default postgresql://root@127.0.0.1:5432/postgres;
 * skipped when unreachable), and one with confidential inference (CONFIDENTIAL_* pointing at the
 * development enclave, bench/perf/enclave.ts, whose own reference is bare-proxy.mjs --bytes in front of
 * it: bench/perf/confidential.ts). Then, for each of 3 rounds, measures every reference and its Hush
 * counterpart one after the other (interleaved, so a machine busy with other work weighs on both alike)
 * and prints, per goal: reference, Hush and the ratio (median of the rounds, with the range of the
 * rounds' ratios); then the milliseconds each path adds per turn (TTFT p50 difference) beside other
 * gateways' published overheads, and with PERF_CPU_PROF the top five self-time frames per timed run.
 *
 * Throughput: a bounded client (`--concurrency` connections, keep-alive) for `--seconds` per target;
 * CPU per request: the server's process tree (utime+stime from /proc) over that window divided by the
 * requests it completed. TTFT: sequential requests, time to the first byte of the first token.
 * History: the route over HTTP vs the same rows read with one raw SQL statement over node-postgres.
 * Next's floor: a separate minimal Next app (bench/floor-app: a trivial prerendered page, and a route
 * that only proxies the model), built here on first use and started beside the instances, so the
 * product itself carries no benchmark-only route.
 *
 * Options: --rounds 3 --seconds 4 --concurrency 20 --ttft 30
 *          --only visitor,search,signed,confidential,wait,history,landing
 * search (docs/issues.md #50): a visitor turn with "Search the web" on (model call, engine call, model call, all
 * against the zero-delay fake model and its zero-delay /search) against bare-proxy.mjs's POST /search-chat, which
 * makes the same three calls.
 * PERF_CPU_PROF=dir writes a V8 CPU profile of each app instance into dir/<instance> (node --cpu-prof)
 * and prints each timed run's top frames from them. PERF_JSON=file writes the rows (bench/all-goals.mjs).
 * Ports from 5851 (override with PERF_PORT_BASE): model, bare proxy, PGlite, PostgreSQL, floor app,
 * confidential instance, enclave, bare enclave proxy, bare storing proxy (bench/perf/setup.ts PORT).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { agent, latencyUnderLoad, median, runJob, send, throughput as measure, ttft as ttftOf, type Job, type Target } from "./client";
import { checkConfidential, confidentialTurn, sealedRequests } from "./confidential";
import { start, stopAll, waitFor } from "./processes";
import { printOverheads, printProfiles, printSplits, printTable, profiled, record, recordSplit, writeJson } from "./report";
import { PORT, ROOT, SealedTurns, appEnv, buildFloorApp, seed, startApp, startCommand, startFloorApp } from "./setup";
import { option } from "./options";

const ROUNDS = Number(option("rounds", "3"));
const SECONDS = Number(option("seconds", "4"));
/** docs/issues.md #24: the throughput point is 20 concurrent turns. */
const CONCURRENCY = Number(option("concurrency", "20"));
const TTFT_N = Number(option("ttft", "30"));
const ONLY = new Set(option("only", "visitor,search,signed,confidential,wait,history,landing").split(","));
const PG_SERVER = process.env.BENCH_POSTGRES_URL ?? "postgresql://root@127.0.0.1:5432/postgres";

const throughput = (t: Job, pid: number, concurrency = CONCURRENCY, seconds = SECONDS) => measure(t, pid, concurrency, seconds);
const ttft = (t: Job) => ttftOf(t, TTFT_N);

interface App {
  pid: number;
  port: number;
  cookie: string;
  turns: SealedTurns;
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("No production build: run `npm run build` first.");
  const loadAtStart = os.loadavg();
  buildFloorApp();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hush-perf-"));

  start("fake-llm", process.execPath, ["bench/perf/fake-llm.mjs", "--port", String(PORT.llm)]);
  const barePid = start("bare-proxy", process.execPath, ["bench/perf/bare-proxy.mjs", "--port", String(PORT.bare), "--upstream", `http://127.0.0.1:${PORT.llm}`]).pid!;
  const confidential = ONLY.has("confidential");
  const bareEnclavePid = confidential
    ? start("bare-enclave-proxy", process.execPath, ["bench/perf/bare-proxy.mjs", "--bytes", "--port", String(PORT.bareEnclave), "--upstream", `http://127.0.0.1:${PORT.enclave}`]).pid!
    : 0;
  if (confidential) start("enclave", process.execPath, ["--import", "tsx", "bench/perf/enclave.ts", "--port", String(PORT.enclave)]);

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
  const confEnv = confidential ? appEnv(PORT.conf, path.join(tmp, "conf"), "", true) : null;
  if (confEnv) await seed(confEnv, false);

  const lite: App = {
    pid: startApp("hush-pglite", PORT.lite, liteEnv),
    port: PORT.lite,
    cookie: liteSeed.cookie,
    turns: new SealedTurns(liteSeed.key, liteSeed.userId),
  };
  const floorPid = startFloorApp(PORT.floor, { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", FLOOR_LLM_BASE_URL: `http://127.0.0.1:${PORT.llm}/v1` });
  const pgApp: App | null = pgEnv
    ? { pid: startApp("hush-postgres", PORT.pg, pgEnv), port: PORT.pg, cookie: pgSeed!.cookie, turns: new SealedTurns(pgSeed!.key, pgSeed!.userId) }
    : null;
  const confPid = confEnv ? startApp("hush-confidential", PORT.conf, confEnv) : 0;
  // The signed-in saved turn's second reference: the bare proxy that also stores the sealed turn (one INSERT
  // into its own table of the same throwaway database).
  const bareStorePid =
    pgUrl && ONLY.has("signed")
      ? start("bare-store", process.execPath, ["bench/perf/bare-proxy.mjs", "--port", String(PORT.bareStore), "--upstream", `http://127.0.0.1:${PORT.llm}`, "--store", pgUrl]).pid!
      : 0;
  // Enough sealed turns for every timed loop (topped up again before each round).
  const fillTurns = () => Promise.all([lite, pgApp].map((a) => (ONLY.has("signed") || ONLY.has("wait") ? a?.turns.fill(3000) : undefined)));
  await fillTurns();
  await waitFor(`http://127.0.0.1:${PORT.llm}/health`);
  await waitFor(`http://127.0.0.1:${PORT.bare}/health`);
  await waitFor(`http://127.0.0.1:${PORT.floor}/`);
  await waitFor(`http://127.0.0.1:${PORT.lite}/api/health`);
  if (pgApp) await waitFor(`http://127.0.0.1:${PORT.pg}/api/health`);
  if (bareStorePid) await waitFor(`http://127.0.0.1:${PORT.bareStore}/health`);
  let confTurn: Job | null = null;
  let bareConf: Job | null = null;
  if (confidential) {
    await waitFor(`http://127.0.0.1:${PORT.enclave}/.well-known/tinfoil-attestation`);
    await waitFor(`http://127.0.0.1:${PORT.bareEnclave}/health`);
    await waitFor(`http://127.0.0.1:${PORT.conf}/api/health`);
    await checkConfidential(PORT.conf, PORT.bareEnclave, PORT.enclave);
    const sealed = await sealedRequests(PORT.conf, PORT.enclave, 256);
    confTurn = confidentialTurn(PORT.conf, sealed, false);
    bareConf = confidentialTurn(PORT.bareEnclave, sealed, true);
  }

  const chatBody = JSON.stringify({
    messages: [{ role: "user", content: "How fast can a private chat be?" }],
    model: "llama3-8b-8192",
    file: null,
    chat_id: null,
    save_chat: false,
  });
  // Since the vault (docs/issues.md #8) chat_user stores nothing: a signed-in turn with saving is the streamed
  // POST /api/ns/chat_user (new chat, chat_id null) followed, once the answer is complete, by the
  // turn sealed under the vault key POSTed to /api/ns/chat_save, as the browser does. Both requests are
  // on the clock; the sealing is done ahead (SealedTurns). TTFT is the chat_user request's.
  const sse = { accept: "text/event-stream" };
  const bare: Target = { port: PORT.bare, method: "POST", path: "/chat", body: chatBody, first: "Hello", done: "[DONE]" };
  const visitor: Target = { port: PORT.lite, method: "POST", path: "/api/ns/chat", headers: sse, body: chatBody, first: "Hello", done: "event: done" };
  const searchBody = JSON.stringify({ ...JSON.parse(chatBody), web_search: true });
  const visitorSearch: Target = { port: PORT.lite, method: "POST", path: "/api/ns/chat", headers: sse, body: searchBody, first: "Hello", done: "event: done" };
  const bareSearch: Target = { port: PORT.bare, method: "POST", path: "/search-chat", body: chatBody, first: "Hello", done: "[DONE]" };
  const signed = (app: App): Job => ({
    name: "chat_user + chat_save",
    port: app.port,
    run: async () => {
      const sealedTurn = await app.turns.take();
      const chat = await send({
        port: app.port,
        method: "POST",
        path: "/api/ns/chat_user",
        headers: { ...sse, cookie: app.cookie, origin: `http://127.0.0.1:${app.port}` },
        body: chatBody,
        first: "Hello",
        done: "event: done",
      });
      if (!chat.ok) return chat;
      const t0 = performance.now();
      const save = await send({
        port: app.port,
        method: "POST",
        path: "/api/ns/chat_save",
        headers: { cookie: app.cookie, origin: `http://127.0.0.1:${app.port}` },
        body: sealedTurn,
        done: "last_updated",
      });
      return { ok: save.ok, firstMs: chat.firstMs, totalMs: chat.totalMs + (performance.now() - t0) };
    },
  });
  // The same two requests to the bare storing proxy: the chat, then the sealed turn stored as it came.
  const bareSealed = pgApp ? await pgApp.turns.take() : "";
  const bareSaved: Job = {
    name: "chat + save",
    port: PORT.bareStore,
    run: async () => {
      const chat = await send({ port: PORT.bareStore, method: "POST", path: "/chat", body: chatBody, first: "Hello", done: "[DONE]" });
      if (!chat.ok) return chat;
      const t0 = performance.now();
      const save = await send({ port: PORT.bareStore, method: "POST", path: "/save", body: bareSealed, done: "last_updated" });
      return { ok: save.ok, firstMs: chat.firstMs, totalMs: chat.totalMs + (performance.now() - t0) };
    },
  };
  // A Next route handler that does what the bare proxy does (read the JSON body, fetch the model, pass
  // its SSE through) and nothing else: what Next itself costs (bench/floor-app/app/stream/route.js).
  const nextFloor: Target = { port: PORT.floor, method: "POST", path: "/stream", body: chatBody, first: "Hello", done: "[DONE]" };
  const page = (port: number, p: string): Target => ({ port, method: "GET", path: p, done: "</html>" });
  const pids: Record<number, number> = {
    [PORT.bare]: barePid,
    [PORT.floor]: floorPid,
    [PORT.lite]: lite.pid,
    [PORT.conf]: confPid,
    [PORT.bareEnclave]: bareEnclavePid,
    [PORT.bareStore]: bareStorePid,
  };
  if (pgApp) pids[PORT.pg] = pgApp.pid;
  const pidOf = (port: number) => pids[port]!;
  // A request that needs no SQL, served by the instance under test (GET /api/health, liveness only).
  const noSql = (port: number): Target => ({ port, method: "GET", path: "/api/health", done: "ok" });

  // Warm-up: JIT, connection pools, the first PGlite and Prisma queries.
  const warm = [
    bare,
    ...(ONLY.has("visitor") ? [visitor, nextFloor] : []),
    ...(ONLY.has("search") ? [bareSearch, visitorSearch] : []),
    ...(confTurn && bareConf ? [bareConf, confTurn] : []),
    ...(ONLY.has("signed") || ONLY.has("wait") ? [signed(lite), ...(pgApp ? [signed(pgApp)] : [])] : []),
    ...(bareStorePid ? [bareSaved] : []),
    ...(ONLY.has("landing") ? [page(PORT.lite, "/"), page(PORT.floor, "/")] : []),
    ...(ONLY.has("wait") ? [noSql(PORT.lite), ...(pgApp ? [noSql(PORT.pg)] : [])] : []),
  ];
  for (const t of warm) {
    for (let i = 0; i < 20; i++) await runJob(t);
    await throughput(t, pidOf(t.port), 4, 1);
  }

  const pool = pgUrl ? new pg.Pool({ connectionString: pgUrl, max: 2 }) : null;

  for (let round = 1; round <= ROUNDS; round++) {
    console.error(`round ${round} of ${ROUNDS}…`);
    await fillTurns();
    if (ONLY.has("visitor")) {
      const b = await throughput(bare, barePid);
      const v = await profiled("visitor chat", "hush-pglite", () => throughput(visitor, lite.pid));
      record("v-rps", { goal: `Visitor chat throughput, ${CONCURRENCY} concurrent, zero-delay model (≥ 0.5×)`, unit: "req/s", kind: "min", bound: 0.5 }, b.rps, v.rps);
      record("v-cpu", { goal: "Visitor chat CPU per request (issue: 6–7× before)", unit: "ms", kind: "info" }, b.cpuPerReq, v.cpuPerReq);
      recordSplit("visitor chat, one turn", 0.5, b, v);
      const f = await throughput(nextFloor, floorPid);
      record("floor-rps", { goal: "Next's floor: a route handler that only proxies the model, throughput", unit: "req/s", kind: "info" }, b.rps, f.rps);
      record("floor-cpu", { goal: "Next's floor: CPU per request", unit: "ms", kind: "info" }, b.cpuPerReq, f.cpuPerReq);
      const bt = await ttft(bare);
      const vt = await profiled("visitor chat", "hush-pglite", () => ttft(visitor));
      record("v-ttft", { goal: "Visitor chat TTFT p50, 1 concurrent (≤ 2×)", unit: "ms", kind: "max", bound: 2 }, bt, vt);
      record("v-add", { goal: "Visitor chat, POST /api/ns/chat", unit: "ms", kind: "diff" }, bt, vt);
      record("floor-ttft", { goal: "Next's floor: TTFT p50, 1 concurrent", unit: "ms", kind: "info" }, bt, await ttft(nextFloor));
    }
    if (ONLY.has("search")) {
      const b = await throughput(bareSearch, barePid);
      const v = await profiled("visitor search turn", "hush-pglite", () => throughput(visitorSearch, lite.pid));
      record("search-rps", { goal: `Visitor search turn throughput (model, engine, model), ${CONCURRENCY} concurrent (≥ 0.5×)`, unit: "req/s", kind: "min", bound: 0.5 }, b.rps, v.rps);
      record("search-cpu", { goal: "Visitor search turn CPU per request", unit: "ms", kind: "info" }, b.cpuPerReq, v.cpuPerReq);
      record("search-ttft", { goal: "Visitor search turn TTFT p50, 1 concurrent", unit: "ms", kind: "info" }, await ttft(bareSearch), await ttft(visitorSearch));
    }
    if (ONLY.has("signed")) {
      const b = await throughput(bare, barePid);
      if (pgApp) {
        const s = await profiled("signed-in chat + saving (PostgreSQL)", "hush-postgres", () => throughput(signed(pgApp), pgApp.pid));
        record("s-pg-rps", { goal: `Signed-in chat + saving, PostgreSQL: throughput, ${CONCURRENCY} concurrent (≥ 0.35×)`, unit: "req/s", kind: "min", bound: 0.35 }, b.rps, s.rps);
        record("s-pg-cpu", { goal: "Signed-in chat + saving, PostgreSQL: CPU per request", unit: "ms", kind: "info" }, b.cpuPerReq, s.cpuPerReq);
        recordSplit("signed-in chat + saving (PostgreSQL), one turn", 0.35, b, s);
        const bs = await throughput(bareSaved, bareStorePid);
        record(
          "s-pg-bare-saved",
          { goal: "Signed-in chat + saving, PostgreSQL: throughput vs the bare proxy that also stores the sealed turn (one INSERT)", unit: "req/s", kind: "info" },
          bs.rps,
          s.rps,
        );
        recordSplit("bare proxy chat + one INSERT of the sealed turn", 0.35, b, bs);
      }
      const l = await throughput(signed(lite), lite.pid);
      record("s-lite-rps", { goal: "Signed-in chat + saving, PGlite: throughput", unit: "req/s", kind: "info" }, b.rps, l.rps);
      record("s-lite-cpu", { goal: "Signed-in chat + saving, PGlite: CPU per request", unit: "ms", kind: "info" }, b.cpuPerReq, l.cpuPerReq);
      const bt = await ttft(bare);
      if (pgApp) {
        const st = await profiled("signed-in chat + saving (PostgreSQL)", "hush-postgres", () => ttft(signed(pgApp)));
        record("s-pg-ttft", { goal: "Signed-in chat + saving, PostgreSQL: TTFT p50, 1 concurrent (≤ 3×)", unit: "ms", kind: "max", bound: 3 }, bt, st);
        record("s-pg-add", { goal: "Signed-in chat, POST /api/ns/chat_user, PostgreSQL (TTFT precedes chat_save)", unit: "ms", kind: "diff" }, bt, st);
      }
      record("s-lite-ttft", { goal: "Signed-in chat + saving, PGlite: TTFT p50", unit: "ms", kind: "info" }, bt, await ttft(signed(lite)));
    }
    if (confTurn && bareConf) {
      // The relay against bytes forwarded by a bare node:http proxy, both in front of the same enclave.
      const b = await throughput(bareConf, bareEnclavePid);
      const c = await profiled("confidential relay", "hush-confidential", () => throughput(confTurn, confPid));
      record("c-rps", { goal: `Confidential relay throughput, ${CONCURRENCY} concurrent, vs a bare byte proxy of the enclave (≥ 0.5×)`, unit: "req/s", kind: "min", bound: 0.5 }, b.rps, c.rps);
      record("c-cpu", { goal: "Confidential relay CPU per request (the app vs the byte proxy)", unit: "ms", kind: "info" }, b.cpuPerReq, c.cpuPerReq);
      const bt = await ttft(bareConf);
      const ct = await profiled("confidential relay", "hush-confidential", () => ttft(confTurn));
      record("c-ttft", { goal: "Confidential relay TTFT p50, 1 concurrent (≤ 2×)", unit: "ms", kind: "max", bound: 2 }, bt, ct);
      record("c-add", { goal: "Confidential relay, POST /api/confidential/chat (visitor)", unit: "ms", kind: "diff" }, bt, ct);
    }
    if (ONLY.has("wait") && pgApp) {
      // A request that needs no SQL (GET /api/health), sent while 8 signed-in chats with saving run:
      // on PostgreSQL the SQL runs in another process; on PGlite it shares the server's process.
      const probePg = await latencyUnderLoad(noSql(PORT.pg), signed(pgApp), 8, SECONDS);
      const probeLite = await latencyUnderLoad(noSql(PORT.lite), signed(lite), 8, SECONDS);
      record("wait", { goal: "PGlite: a no-SQL request's p95 latency during saving load, vs PostgreSQL", unit: "ms", kind: "max", bound: 1.5 }, probePg.p95, probeLite.p95);
    }
    if (ONLY.has("history") && pool && pgApp && pgSeed) {
      const N = 40;
      const raw1: number[] = [];
      const http1: number[] = [];
      const raw2: number[] = [];
      const http2: number[] = [];
      const floorGet: number[] = [];
      const floor = { ...page(PORT.floor, "/stream"), done: "ok" };
      const list = { ...page(PORT.pg, "/api/ns/chat_history?limit=50"), headers: { cookie: pgApp.cookie }, done: "next_cursor" };
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
        floorGet.push((await send(floor)).totalMs);
      }
      record("h-list", { goal: "History first page of 50, PostgreSQL, vs raw SQL (≤ 3×)", unit: "ms", kind: "max", bound: 3 }, median(raw1), median(http1));
      record("h-open", { goal: "Opening a 20-message chat, PostgreSQL, vs raw SQL (≤ 3×)", unit: "ms", kind: "max", bound: 3 }, median(raw2), median(http2));
      record("h-floor", { goal: "Next's floor: a GET route answering JSON, vs the first page's raw SQL", unit: "ms", kind: "info" }, median(raw1), median(floorGet));
    }
    if (ONLY.has("landing")) {
      const floor = await throughput(page(PORT.floor, "/"), floorPid);
      const landing = await throughput(page(PORT.lite, "/"), lite.pid);
      record("landing", { goal: "Landing page req/s vs the trivial prerendered page (≥ 0.8×)", unit: "req/s", kind: "min", bound: 0.8 }, floor.rps, landing.rps);
      // CPU per request is the steadier figure on a busy machine (the req/s ratio swings with the scheduler).
      record("landing-cpu", { goal: "Landing page CPU per request vs the trivial page", unit: "ms", kind: "info" }, floor.cpuPerReq, landing.cpuPerReq);
    }
  }

  const sizes = await Promise.all(
    [PORT.floor, PORT.lite].map(async (port) => (await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text())).length),
  );
  const load = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");
  const s = startCommand();
  console.log(
    `\nbench/perf: ${ROUNDS} rounds, interleaved; ${CONCURRENCY} connections × ${SECONDS} s per throughput run; TTFT median of ${TTFT_N}; ` +
      `${os.cpus().length} cores, load average at start ${load(loadAtStart)}, at end ${load(os.loadavg())}; HTML bytes: floor app / ${sizes[0]}, Hush / ${sizes[1]}\n` +
      `app instances started with npm start's command: ${s.node ? "node" : path.relative(ROOT, s.cmd)} ${s.args.join(" ")}\n`,
  );
  printTable();
  printOverheads();
  printSplits(os.cpus().length);
  // bench/all-goals.mjs reads the rows back to print every goal of the issue in one table.
  if (process.env.PERF_JSON) writeJson(process.env.PERF_JSON);

  await pool?.end();
  // No idle keep-alive connection left to hold a server's graceful close (and its profile) back.
  agent.destroy();
  await stopAll();
  // The instances write their profiles as they exit.
  printProfiles(process.env.PERF_CPU_PROF);
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
