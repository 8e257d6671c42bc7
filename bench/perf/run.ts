/**
 * docs/issues.md #12's goals in one run: `npm run build && npm run bench:perf`.
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
 * Next's floor: a separate minimal Next app (bench/floor-app: a trivial prerendered page, and a route
 * that only proxies the model), built here on first use and started beside the two instances, so the
 * product itself carries no benchmark-only route.
 *
 * Options: --rounds 3 --seconds 4 --concurrency 16 --ttft 30 --only visitor,signed,history,landing,wait
 * PERF_CPU_PROF=dir writes a V8 CPU profile of each app instance into dir (node --cpu-prof).
 * Ports 5851-5855 (override with PERF_PORT_BASE): model, bare proxy, PGlite, PostgreSQL, floor app.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { generateVaultKey, importVaultKey } from "@/lib/vault/crypto";
import { sealTurn, type PlainMessage } from "@/lib/vault/seal";
import { sleep, start, stopAll, treeCpuMs, waitFor } from "./processes";

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
const PORT = { llm: BASE, bare: BASE + 1, lite: BASE + 2, pg: BASE + 3, floor: BASE + 4 };
const PG_SERVER = process.env.BENCH_POSTGRES_URL ?? "postgresql://root@127.0.0.1:5432/postgres";
const ROOT = path.resolve(import.meta.dirname, "../..");
/** The fake model's answer (bench/perf/fake-llm.mjs, 64 deltas). */
const ANSWER = "Hello" + " tok".repeat(63);

// Processes: bench/perf/processes.ts (start, stopAll, waitFor, sleep, treeCpuMs).

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

/** One measured unit of work: a request, or a sequence of requests (a signed-in turn: chat, then save). */
type Job = Target | { name: string; port: number; run: () => Promise<Outcome> };
const runJob = (j: Job) => ("run" in j ? j.run() : send(j));
const jobName = (j: Job) => ("run" in j ? `:${j.port} ${j.name}` : `:${j.port}${j.path}`);

/** Requests per second with `concurrency` loops for `seconds`, and CPU ms per request of `pid`'s tree. */
async function throughput(t: Job, pid: number, concurrency = CONCURRENCY, seconds = SECONDS) {
  const end = performance.now() + seconds * 1000;
  let ok = 0;
  let failed = 0;
  const cpu0 = treeCpuMs(pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const r = await runJob(t);
        if (r.ok) ok++;
        else failed++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = treeCpuMs(pid) - cpu0;
  if (failed) console.error(`  ! ${failed} failed requests to ${jobName(t)}`);
  return { rps: ok / elapsed, cpuPerReq: cpu / Math.max(1, ok + failed) };
}

async function ttft(t: Job, n = TTFT_N) {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await runJob(t);
    if (!r.ok) throw new Error(`TTFT request to ${jobName(t)} failed`);
    xs.push(r.firstMs);
  }
  return median(xs);
}

/** p50 latency of `probe`, sent one at a time, while `load` runs at `concurrency` for `seconds`. */
async function latencyUnderLoad(probe: Target, load: Job, concurrency = 8, seconds = SECONDS) {
  const end = performance.now() + seconds * 1000;
  const lat: number[] = [];
  const loops = Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) await runJob(load);
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
  turns: SealedTurns;
}

function appEnv(port: number, dataDir: string, databaseUrl: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: "",
    NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789abcdef0123456789",
    LLM_BASE_URL: `http://127.0.0.1:${PORT.llm}/v1`,
    LLM_API_KEY: "bench",
    GROQ_API_KEY: "",
    QUOTA_VISITOR_PER_DAY: "1000000000",
    QUOTA_FREE_PER_DAY: "1000000000",
    QUOTA_PRO_PER_DAY: "1000000000",
  };
}

/**
 * Migrate, create a user, a session and the user's vault (docs/issues.md #8: the server only needs the vault row;
 * the key stays here, as in the browser); for PostgreSQL also 60 sealed chats plus one of 20 messages,
 * stored through the same code as POST /api/ns/chat_save (chatSaveBodySchema + saveSealedTurn).
 */
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
  await db.vault.create({ data: { userId: user.id } });
  const key = await importVaultKey(generateVaultKey());
  let longChat = "";
  if (withHistory) {
    const { saveSealedTurn } = await import("@/lib/db/queries");
    const { chatSaveBodySchema } = await import("@/lib/vault/schemas");
    const { toSealedMessage } = await import("@/lib/vault/server");
    const store = async (messages: PlainMessage[], title: string) => {
      const chatId = crypto.randomUUID();
      const input = chatSaveBodySchema.parse(await sealTurn({ key, userId: user.id, chatId, create: true, firstPosition: 0, messages, title }));
      await saveSealedTurn({
        userId: user.id,
        chatId,
        create: true,
        title: input.title_ciphertext,
        firstPosition: 0,
        messages: input.messages.map(toSealedMessage),
      });
      return chatId;
    };
    for (let i = 0; i < 60; i++) {
      await store(
        [
          { role: "user", content: `Question ${i} `.repeat(20) },
          { role: "assistant", content: `Answer ${i} `.repeat(80) },
        ],
        `Chat number ${i} about something`,
      );
    }
    const messages: PlainMessage[] = Array.from({ length: 20 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: (i % 2 ? "An answer of a few sentences. " : "A question. ").repeat(i % 2 ? 20 : 4),
    }));
    longChat = await store(messages, "A twenty-message chat");
  }
  await closeDb();
  return { userId: user.id, cookie: `${sessionCookieName()}=${token}`, longChat, key };
}

/**
 * Sealed chat_save bodies for new chats of `userId` (create: true, a fresh chat id each), made ahead
 * of the timed loops: in the product the browser seals while the answer streams in, so only the POST
 * is on the clock. `take()` seals on the spot if the pool runs dry (counted on the client, not the server).
 */
class SealedTurns {
  private pool: string[] = [];
  constructor(
    private readonly key: CryptoKey,
    private readonly userId: string,
  ) {}
  private async one(): Promise<string> {
    const chatId = crypto.randomUUID();
    const messages: PlainMessage[] = [
      { role: "user", content: "How fast can a private chat be?" },
      { role: "assistant", content: ANSWER },
    ];
    return JSON.stringify(await sealTurn({ key: this.key, userId: this.userId, chatId, create: true, firstPosition: 0, messages, title: "How fast can a private chat be?" }));
  }
  async fill(n: number) {
    while (this.pool.length < n) this.pool.push(...(await Promise.all(Array.from({ length: Math.min(200, n - this.pool.length) }, () => this.one()))));
  }
  async take(): Promise<string> {
    return this.pool.pop() ?? (await this.one());
  }
}

const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const FLOOR_DIR = path.join(ROOT, "bench/floor-app");

/** Hush as `npm start` runs it (server.mjs, docs/issues.md #24); the floor app (`dir`) with `next start`. */
function startApp(name: string, port: number, env: Record<string, string>, dir = ROOT): number {
  const prof = process.env.PERF_CPU_PROF;
  const node = prof ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(prof, name)}`] : [];
  const server = dir === ROOT ? ["--require", "./deploy/http-timeouts.cjs", "server.mjs"] : [NEXT_BIN, "start"];
  const child = start(name, process.execPath, [...node, ...server, "-p", String(port), "-H", "127.0.0.1"], env, dir);
  return child.pid!;
}

/**
 * `next build` of bench/floor-app (with the repository's own next) unless its build is newer than
 * every source file of it. About 30-60 s on 2 cores; the build stays in bench/floor-app/.next (ignored).
 */
function buildFloorApp() {
  const sources = ["next.config.mjs", "instrumentation.js", "app/layout.js", "app/page.js", "app/stream/route.js"];
  const built = path.join(FLOOR_DIR, ".next/BUILD_ID");
  const newest = Math.max(...sources.map((f) => fs.statSync(path.join(FLOOR_DIR, f)).mtimeMs), fs.statSync(NEXT_BIN).mtimeMs);
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs > newest) return;
  console.error("building bench/floor-app (Next's floor)…");
  const r = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    cwd: FLOOR_DIR,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error(`next build of bench/floor-app failed (exit ${r.status})`);
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
  buildFloorApp();
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

  const lite: App = {
    pid: startApp("hush-pglite", PORT.lite, liteEnv),
    port: PORT.lite,
    cookie: liteSeed.cookie,
    turns: new SealedTurns(liteSeed.key, liteSeed.userId),
  };
  const floorPid = startApp("floor-app", PORT.floor, { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", FLOOR_LLM_BASE_URL: `http://127.0.0.1:${PORT.llm}/v1` }, FLOOR_DIR);
  const pgApp: App | null = pgEnv
    ? { pid: startApp("hush-postgres", PORT.pg, pgEnv), port: PORT.pg, cookie: pgSeed!.cookie, turns: new SealedTurns(pgSeed!.key, pgSeed!.userId) }
    : null;
  // Enough sealed turns for every timed loop (topped up again before each round).
  const fillTurns = () => Promise.all([lite, pgApp].map((a) => (ONLY.has("signed") || ONLY.has("wait") ? a?.turns.fill(3000) : undefined)));
  await fillTurns();
  await waitFor(`http://127.0.0.1:${PORT.llm}/health`);
  await waitFor(`http://127.0.0.1:${PORT.bare}/health`);
  await waitFor(`http://127.0.0.1:${PORT.floor}/`);
  await waitFor(`http://127.0.0.1:${PORT.lite}/api/health`);
  if (pgApp) await waitFor(`http://127.0.0.1:${PORT.pg}/api/health`);

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
  // A Next route handler that does what the bare proxy does (read the JSON body, fetch the model, pass
  // its SSE through) and nothing else: what Next itself costs (bench/floor-app/app/stream/route.js).
  const nextFloor: Target = { port: PORT.floor, method: "POST", path: "/stream", body: chatBody, first: "Hello", done: "[DONE]" };
  const page = (port: number, p: string): Target => ({ port, method: "GET", path: p, done: "</html>" });
  const pidOf = (port: number) => (port === PORT.bare ? barePid : port === PORT.floor ? floorPid : port === PORT.pg && pgApp ? pgApp.pid : lite.pid);
  // A request that needs no SQL, served by the instance under test (GET /api/health, liveness only).
  const noSql = (port: number): Target => ({ port, method: "GET", path: "/api/health", done: "ok" });

  // Warm-up: JIT, connection pools, the first PGlite and Prisma queries.
  const warm = [
    bare,
    ...(ONLY.has("visitor") ? [visitor, nextFloor] : []),
    ...(ONLY.has("signed") || ONLY.has("wait") ? [signed(lite), ...(pgApp ? [signed(pgApp)] : [])] : []),
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
      const v = await throughput(visitor, lite.pid);
      record("v-rps", { goal: "Visitor chat throughput, zero-delay model (≥ 0.5×)", unit: "req/s", kind: "min", bound: 0.5 }, b.rps, v.rps);
      record("v-cpu", { goal: "Visitor chat CPU per request (issue: 6–7× before)", unit: "ms", kind: "info" }, b.cpuPerReq, v.cpuPerReq);
      const f = await throughput(nextFloor, floorPid);
      record("floor-rps", { goal: "Next's floor: a route handler that only proxies the model, throughput", unit: "req/s", kind: "info" }, b.rps, f.rps);
      record("floor-cpu", { goal: "Next's floor: CPU per request", unit: "ms", kind: "info" }, b.cpuPerReq, f.cpuPerReq);
      const bt = await ttft(bare);
      const vt = await ttft(visitor);
      record("v-ttft", { goal: "Visitor chat TTFT p50, 1 concurrent (≤ 2×)", unit: "ms", kind: "max", bound: 2 }, bt, vt);
      record("floor-ttft", { goal: "Next's floor: TTFT p50, 1 concurrent", unit: "ms", kind: "info" }, bt, await ttft(nextFloor));
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
      // A request that needs no SQL (GET /api/health), sent while 8 signed-in chats with saving run:
      // on PostgreSQL the SQL runs in another process; on PGlite it shares the server's process.
      const probePg = await latencyUnderLoad(noSql(PORT.pg), signed(pgApp));
      const probeLite = await latencyUnderLoad(noSql(PORT.lite), signed(lite));
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
  console.log(
    `\nbench/perf: ${ROUNDS} rounds, interleaved; ${CONCURRENCY} connections × ${SECONDS} s per throughput run; TTFT median of ${TTFT_N}; ` +
      `${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}; HTML bytes: floor app / ${sizes[0]}, Hush / ${sizes[1]}\n`,
  );
  printTable();
  // bench/issue12.mjs reads the rows back to print every goal of the issue in one table.
  if (process.env.PERF_JSON) {
    const out = [...rows.values()].map((r) => {
      const ratios = r.hush.map((h, i) => h / r.ref[i]!);
      return { goal: r.goal, unit: r.unit, kind: r.kind, bound: r.bound ?? null, ref: median(r.ref), hush: median(r.hush), ratio: median(ratios), rounds: ratios };
    });
    fs.writeFileSync(process.env.PERF_JSON, JSON.stringify(out, null, 2));
  }

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
