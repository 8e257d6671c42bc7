/**
 * Confidential inference benchmarks of docs/issues.md #20 ("Done when"), each a ratio against a reference measured in
 * the same run, interleaved, 3 rounds, medians reported (docs/confidential-inference.md "Benchmarks").
 *
 *   npx next build && npm run bench:confidential            # both parts
 *   npm run bench:confidential -- --part relay               # only part 1 (or --part browser)
 *   BENCH_ROUNDS=3 BENCH_SEQUENTIAL=8 BENCH_CONCURRENCY=8 BENCH_THROUGHPUT_TURNS=32 BENCH_PIECE_MS=1 ...
 *
 * Part 1, the relay (Node client, production build): two `next start` instances of the same build, started
 * here — P on BENCH_APP_PORT (default 3300; plaintext: every model through the fake LLM) and C on +1
 * (CONFIDENTIAL_* pointing at the development enclave, development trust, as playwright.config.ts starts
 * its confidential instance) — and, in a child process, the fake LLM (tests/helpers/fake-llm-server.ts) and the
 * development enclave (dev/enclave.ts) made to stream the SAME answer (the fake LLM's
 * `fakeAnswer`: "You asked: <last message>.") in the same 3-word pieces at the same pace (BENCH_PIECE_MS).
 * Three paths for the same ~10 KB conversation (answer ~4 KB, ~230 pieces):
 *   (a) plaintext: POST /api/ns/chat on P (visitor, SSE), the app calling the fake LLM;
 *   (b) confidential: the body encrypted in Node with lib/browser/confidential/ehbp-client.ts, POST /api/confidential/chat
 *       on C (visitor), relayed to the enclave, the answer decrypted;
 *   (c) direct: the same encrypted request sent to the enclave itself (no relay): the reference for the
 *       relay's own cost.
 * Per path: time to first answer text (request start to the first "You asked" in the decoded answer, so the
 * client's encryption and the first frame's decryption are inside (b) and (c)), total time (to the end of the
 * decoded answer), both medians of BENCH_SEQUENTIAL sequential turns; and turns/s with BENCH_CONCURRENCY
 * in flight for BENCH_THROUGHPUT_TURNS turns. The paths run in a rotated order every round.
 *
 * Part 2, the browser (headless Chromium via playwright-core, /usr/bin/chromium): bench/confidential-browser.ts
 * bundled by esbuild (the same lib/browser/confidential modules the chat page runs) on a static page served here:
 * attestation verification cold and cached (development document of the enclave; Tinfoil's recorded
 * production bundle, tests/fixtures/confidential, with the fixed clock tests/confidential uses) against one
 * ECDSA P-256 Web Crypto verification; EHBP encryption of 10 KB and 1 MB against JSON.stringify + TextEncoder
 * + one AES-256-GCM seal of the same request.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const THROUGHPUT_TURNS = Number(process.env.BENCH_THROUGHPUT_TURNS ?? 32);
const PIECE_MS = Number(process.env.BENCH_PIECE_MS ?? 1);
const BROWSER_RUNS = Number(process.env.BENCH_BROWSER_RUNS ?? 15);
const APP_PORT = Number(process.env.BENCH_APP_PORT ?? process.env.E2E_APP_PORT ?? 3300);
const CONF_PORT = APP_PORT + 1;
const ENCLAVE_PORT = Number(process.env.BENCH_ENCLAVE_PORT ?? APP_PORT + 5);
const LLM_PORT = Number(process.env.BENCH_LLM_PORT ?? process.env.E2E_LLM_PORT ?? 4210);
const DATA_DIR = process.env.BENCH_DATA_DIR ?? ".data-bench-confidential";
const MODEL = "llama3-8b-8192";
const ENCLAVE_MODEL = "hush-dev-basic";

const args = process.argv.slice(2);
const part = args.includes("--part") ? args[args.indexOf("--part") + 1] : "all";

// ---------------------------------------------------------------- peers (child process)

/** `--peers`: the fake LLM and the development enclave, streaming the same answer at the same pace. */
async function runPeers(): Promise<void> {
  const { startFakeLlmServer, fakeAnswer } = await import("../tests/helpers/fake-llm-server");
  const { startDevEnclave } = await import("../dev/enclave");
  const llm = await startFakeLlmServer({ port: LLM_PORT, delayMs: PIECE_MS, firstTokenMs: 0 });
  const enclave = await startDevEnclave({ port: ENCLAVE_PORT, chunkDelayMs: PIECE_MS, answer: fakeAnswer });
  console.log(`peers ready ${llm.url} ${enclave.url}`);
  const stop = () => void Promise.all([llm.close(), enclave.close()]).then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

// ---------------------------------------------------------------- helpers

const children: ChildProcess[] = [];

function start(command: string, argv: string[], env: Record<string, string>, label: string): ChildProcess {
  const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  children.push(child);
  let tail = "";
  const keep = (d: Buffer) => (tail = (tail + d.toString()).slice(-2000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  child.on("exit", (code) => {
    if (code && !stopping) console.error(`${label} exited with ${code}:\n${tail}`);
  });
  return child;
}

let stopping = false;
function stopAll(): void {
  stopping = true;
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM"); // the process group: npx and its node child
    } catch {
      // already gone
    }
  }
}

async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (x: number) => `${x.toFixed(Math.abs(x) < 10 ? 3 : 1)} ms`;

function appEnv(port: number, dataDir: string, confidential: boolean): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    ENCRYPTION_MASTER_KEY: "dGVzdC1rZXktZm9yLWUyZS1vbmx5LTMyLWJ5dGVzISE=",
    LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
    LLM_API_KEY: "test",
    LLM_TIMEOUT_MS: "15000",
    DATABASE_URL: "",
    REDIS_URL: "",
    NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789abcdef0123456789",
    QUOTA_VISITOR_PER_DAY: "10000000",
    QUOTA_FREE_PER_DAY: "10000000",
    QUOTA_PRO_PER_DAY: "10000000",
    LOG_LEVEL: "warn",
  };
  if (confidential) {
    Object.assign(env, {
      CONFIDENTIAL_BASE_URL: `http://127.0.0.1:${ENCLAVE_PORT}`,
      CONFIDENTIAL_API_KEY: "bench-enclave-key",
      CONFIDENTIAL_MODELS: "llama3-8b-8192,llama3-70b-8192",
      CONFIDENTIAL_MODEL_BASIC: ENCLAVE_MODEL,
      CONFIDENTIAL_MODEL_PRO: "hush-dev-pro",
      CONFIDENTIAL_TRUST: "development",
      CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION: "1",
    });
  }
  return env;
}

/** The benchmark conversation: ~3 KB question, ~3 KB answer, ~4 KB follow-up (≈10 KB of JSON). */
function conversation(): { role: "user" | "assistant"; content: string }[] {
  const words = (n: number, seed: number) =>
    Array.from({ length: n }, (_, i) => ["sealed", "enclave", "private", "message", "answer", "relay", "cipher", "turns"][(i * 7 + seed) % 8]).join(" ");
  return [
    { role: "user", content: words(420, 1) },
    { role: "assistant", content: words(420, 2) },
    { role: "user", content: words(560, 3) },
  ];
}

interface Turn {
  firstTextMs: number;
  totalMs: number;
  bytes: number;
}

/** Read a stream to its end, noting when the decoded text first contains "You asked". */
async function readTimed(body: ReadableStream<Uint8Array>, started: number): Promise<Turn> {
  const decoder = new TextDecoder();
  let text = "";
  let firstTextMs = -1;
  let bytes = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (firstTextMs < 0) {
      text += decoder.decode(value, { stream: true });
      if (text.includes("You asked")) firstTextMs = performance.now() - started;
    }
  }
  if (firstTextMs < 0) throw new Error(`answer without "You asked": ${text.slice(0, 300)}`);
  return { firstTextMs, totalMs: performance.now() - started, bytes };
}

// ---------------------------------------------------------------- part 1

async function relayPart(): Promise<string[]> {
  const { verifyEnclave } = await import("../lib/browser/confidential/attestation");
  const { sendConfidentialRequest } = await import("../lib/browser/confidential/ehbp-client");
  for (const suffix of ["-plain", "-conf"]) rmSync(path.join(ROOT, DATA_DIR + suffix), { recursive: true, force: true });

  start("npx", ["tsx", "bench/confidential-relay.ts", "--peers"], { BENCH_APP_PORT: String(APP_PORT) }, "peers");
  start(process.execPath, ["--require", "./deploy/http-timeouts.cjs", "server.mjs", "-p", String(APP_PORT), "-H", "127.0.0.1"], appEnv(APP_PORT, DATA_DIR + "-plain", false), "plaintext app");
  start(process.execPath, ["--require", "./deploy/http-timeouts.cjs", "server.mjs", "-p", String(CONF_PORT), "-H", "127.0.0.1"], appEnv(CONF_PORT, DATA_DIR + "-conf", true), "confidential app");
  await waitFor(`http://127.0.0.1:${LLM_PORT}/health`);
  await waitFor(`http://127.0.0.1:${ENCLAVE_PORT}/.well-known/tinfoil-attestation`);
  await Promise.all([waitFor(`http://127.0.0.1:${APP_PORT}/api/health`), waitFor(`http://127.0.0.1:${CONF_PORT}/api/health`)]);

  const plainOrigin = `http://127.0.0.1:${APP_PORT}`;
  const confOrigin = `http://127.0.0.1:${CONF_PORT}`;
  const messages = conversation();
  const plainBody = JSON.stringify({ messages, model: MODEL, file: null, chat_id: null, save_chat: false });
  const encBody = JSON.stringify({ model: ENCLAVE_MODEL, messages, stream: true });
  const document = await (await fetch(`${confOrigin}/api/confidential/attestation`)).json();
  const enclave = await verifyEnclave(document, { trust: "development", enclaveHost: `127.0.0.1:${ENCLAVE_PORT}`, configRepo: "" });

  const paths: Record<"plaintext" | "relay" | "direct", () => Promise<Turn>> = {
    async plaintext() {
      const started = performance.now();
      const res = await fetch(`${plainOrigin}/api/ns/chat`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream", Origin: plainOrigin },
        body: plainBody,
      });
      if (res.status !== 200 || !res.body) throw new Error(`plaintext ${res.status}: ${await res.text()}`);
      return readTimed(res.body, started);
    },
    async relay() {
      const started = performance.now();
      const { response, authenticated } = await sendConfidentialRequest(enclave, `${confOrigin}/api/confidential/chat`, encBody, {
        headers: { "Content-Type": "application/json", Accept: "text/event-stream", "X-Hush-Model": MODEL, Origin: confOrigin },
      });
      if (!authenticated || response.status !== 200 || !response.body) throw new Error(`relay ${response.status}: ${await response.text()}`);
      return readTimed(response.body, started);
    },
    async direct() {
      const started = performance.now();
      const { response, authenticated } = await sendConfidentialRequest(enclave, `http://127.0.0.1:${ENCLAVE_PORT}/v1/chat/completions`, encBody, {
        headers: { "Content-Type": "application/json", Accept: "text/event-stream", Authorization: "Bearer bench-enclave-key" },
      });
      if (!authenticated || response.status !== 200 || !response.body) throw new Error(`direct ${response.status}: ${await response.text()}`);
      return readTimed(response.body, started);
    },
  };
  const names = Object.keys(paths) as (keyof typeof paths)[];

  // Warm-up: compile routes, open connections, JIT.
  for (const name of names) for (let i = 0; i < 3; i++) await paths[name]();
  const sample = await paths.plaintext();
  const sampleEnc = await paths.direct();

  type RoundResult = { firstText: number; total: number; rps: number };
  const results: Record<string, RoundResult[]> = { plaintext: [], relay: [], direct: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]!);
    for (const name of order) {
      const turns: Turn[] = [];
      for (let i = 0; i < SEQUENTIAL; i++) turns.push(await paths[name]());
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next++ < THROUGHPUT_TURNS) await paths[name]();
        }),
      );
      const rps = THROUGHPUT_TURNS / ((performance.now() - started) / 1000);
      results[name]!.push({ firstText: median(turns.map((t) => t.firstTextMs)), total: median(turns.map((t) => t.totalMs)), rps });
      console.log(`  round ${round + 1} ${name.padEnd(9)} first text ${ms(results[name]!.at(-1)!.firstText)}, total ${ms(results[name]!.at(-1)!.total)}, ${rps.toFixed(1)} turns/s`);
    }
  }

  const ratio = (a: string, b: string, key: keyof RoundResult) => median(results[a]!.map((r, i) => r[key] / results[b]![i]![key]));
  const med = (a: string, key: keyof RoundResult) => median(results[a]!.map((r) => r[key]));
  const lines = [
    `Part 1: relay vs plaintext, production build, Node client; request ${Buffer.byteLength(plainBody)} B JSON (encrypted ${Buffer.byteLength(encBody)} B plaintext), answer ${sample.bytes} B SSE plaintext path / ${sampleEnc.bytes} B encrypted SSE; pieces every ${PIECE_MS} ms on both upstreams`,
    `  ${ROUNDS} rounds x (${SEQUENTIAL} sequential turns + ${THROUGHPUT_TURNS} turns at concurrency ${CONCURRENCY}) per path, medians of round medians`,
    "  path                       first text     total      turns/s",
  ];
  for (const name of names) {
    const label = { plaintext: "(a) plaintext /api/ns/chat", relay: "(b) relay /api/confidential", direct: "(c) enclave direct (no relay)" }[name];
    lines.push(`  ${label.padEnd(29)} ${ms(med(name, "firstText")).padStart(9)} ${ms(med(name, "total")).padStart(10)} ${med(name, "rps").toFixed(1).padStart(9)}`);
  }
  lines.push(
    `  ratio (b)/(a) confidential vs plaintext:   first text x${ratio("relay", "plaintext", "firstText").toFixed(2)}, total x${ratio("relay", "plaintext", "total").toFixed(2)}, turns/s x${ratio("relay", "plaintext", "rps").toFixed(2)}`,
    `  ratio (b)/(c) relay's own cost:            first text x${ratio("relay", "direct", "firstText").toFixed(2)}, total x${ratio("relay", "direct", "total").toFixed(2)}, turns/s x${ratio("relay", "direct", "rps").toFixed(2)}`,
    `  added by the relay (b)-(c), median:        first text ${ms(med("relay", "firstText") - med("direct", "firstText"))}, total ${ms(med("relay", "total") - med("direct", "total"))}`,
  );
  return lines;
}

// ---------------------------------------------------------------- part 2

async function browserPart(): Promise<string[]> {
  const esbuild = await import("esbuild");
  const { chromium } = await import("playwright-core");
  const { startDevEnclave } = await import("../dev/enclave");
  const built = await esbuild.build({
    entryPoints: [path.join(ROOT, "bench/confidential-browser.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    tsconfig: path.join(ROOT, "tsconfig.json"),
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
    // @tinfoilsh/verifier falls back to zlib only where DecompressionStream is missing (not in Chromium).
    external: ["zlib", "node:zlib", "crypto", "node:crypto"],
  });
  const script = built.outputFiles[0]!.text;
  const server = http.createServer((req, res) => {
    if (req.url === "/bench.js") {
      res.writeHead(200, { "Content-Type": "text/javascript" });
      return void res.end(script);
    }
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end('<!doctype html><meta charset="utf-8"><title>confidential bench</title><script type="module" src="/bench.js"></script>');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const staticPort = (server.address() as import("node:net").AddressInfo).port;
  const enclave = await startDevEnclave({ port: 0 });
  const enclaveHost = new URL(enclave.url).host;
  const devDocument = await (await fetch(`${enclave.url}/.well-known/tinfoil-attestation`)).json();
  const bundle = JSON.parse(readFileSync(path.join(ROOT, "tests/fixtures/confidential/tinfoil-attestation-bundle.json"), "utf8"));
  const devOptions = { trust: "development", enclaveHost, configRepo: "" };
  // The fixed clock of tests/confidential/attestation.test.ts (inside the recorded certificate's validity).
  const prodOptions = { trust: "production", enclaveHost: "inference.tinfoil.sh", configRepo: "tinfoilsh/confidential-model-router", now: "2026-02-01T00:00:00Z" };

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu"] });
  const lines: string[] = [`Part 2: browser (Chromium ${browser.version()}, bundle ${(script.length / 1024).toFixed(0)} KB minified), ${BROWSER_RUNS} runs per measure per round, ${ROUNDS} rounds`];
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${staticPort}/`);
    await page.waitForFunction(() => "confidentialBench" in globalThis);
    type Bench = Record<string, (...a: unknown[]) => Promise<number[]>>;
    const run = (fn: string, ...a: unknown[]) =>
      page.evaluate(([f, rest]) => ((globalThis as unknown as { confidentialBench: Bench }).confidentialBench[f as string]!(...(rest as unknown[]))), [fn, a] as const);
    // First-ever verification in the page (module-level key import, verifier set-up), once per kind.
    const firstDev = (await run("verifyCold", devDocument, devOptions, 1))[0]!;
    const firstProd = (await run("verifyCold", bundle, prodOptions, 1))[0]!;

    const measures: [string, () => Promise<number[]>][] = [
      ["ref: ECDSA P-256 verify (Web Crypto)", () => run("ecdsaVerify", devDocument, BROWSER_RUNS)],
      ["attestation cold, development", () => run("verifyCold", devDocument, devOptions, BROWSER_RUNS)],
      ["attestation cached, development", () => run("verifyCached", devDocument, devOptions, BROWSER_RUNS)],
      ["attestation cold, production bundle", () => run("verifyCold", bundle, prodOptions, Math.max(3, Math.round(BROWSER_RUNS / 3)))],
      ["attestation cached, production bundle", () => run("verifyCached", bundle, prodOptions, BROWSER_RUNS)],
      ["ref: JSON+TextEncoder+AES-GCM 10 KB", () => run("aesGcm", 10 * 1024, BROWSER_RUNS)],
      ["EHBP encrypt 10 KB", () => run("encrypt", enclave.hpkePublicKey, 10 * 1024, BROWSER_RUNS)],
      ["ref: JSON+TextEncoder+AES-GCM 1 MB", () => run("aesGcm", 1024 * 1024, BROWSER_RUNS)],
      ["EHBP encrypt 1 MB", () => run("encrypt", enclave.hpkePublicKey, 1024 * 1024, BROWSER_RUNS)],
    ];
    const perRound = new Map<string, number[]>(measures.map(([n]) => [n, []]));
    for (const [, fn] of measures) await fn(); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      const order = measures.map((_, i) => measures[(i + round) % measures.length]!);
      for (const [name, fn] of order) perRound.get(name)!.push(median(await fn()));
    }
    const m = (n: string) => median(perRound.get(n)!);
    const r = (a: string, b: string) => median(perRound.get(a)!.map((x, i) => x / perRound.get(b)![i]!));
    lines.push(`  first verification in a fresh page (includes one-off set-up): development ${ms(firstDev)}, production bundle ${ms(firstProd)}`);
    for (const [name] of measures) lines.push(`  ${name.padEnd(40)} ${ms(m(name)).padStart(10)}`);
    const ref = "ref: ECDSA P-256 verify (Web Crypto)";
    lines.push(
      `  ratios: dev cold / ECDSA x${r("attestation cold, development", ref).toFixed(1)}, dev cached / ECDSA x${r("attestation cached, development", ref).toFixed(2)}, ` +
        `prod cold / ECDSA x${r("attestation cold, production bundle", ref).toFixed(1)}, prod cached / ECDSA x${r("attestation cached, production bundle", ref).toFixed(2)}`,
      `          EHBP 10 KB / AES-GCM 10 KB x${r("EHBP encrypt 10 KB", "ref: JSON+TextEncoder+AES-GCM 10 KB").toFixed(2)}, EHBP 1 MB / AES-GCM 1 MB x${r("EHBP encrypt 1 MB", "ref: JSON+TextEncoder+AES-GCM 1 MB").toFixed(2)}`,
    );
  } finally {
    await browser.close();
    await enclave.close();
    server.close();
  }
  return lines;
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  if (args.includes("--peers")) return runPeers();
  process.on("SIGINT", () => {
    stopAll();
    process.exit(130);
  });
  const load = () => os.loadavg().map((x) => x.toFixed(2)).join(" ");
  const out = [`confidential bench, Node ${process.version}, ${os.cpus().length} CPUs, load average at start ${load()}`];
  try {
    if (part === "all" || part === "browser") out.push(...(await browserPart()));
    if (part === "all" || part === "relay") out.push(...(await relayPart()));
  } finally {
    stopAll();
  }
  out.push(`load average at end ${load()}`);
  console.log("\n" + out.join("\n"));
}

main().catch((error: unknown) => {
  console.error(error);
  stopAll();
  process.exit(1);
});
