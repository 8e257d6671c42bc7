/**
 * Dictation's overhead (docs/issues.md #52, "Benchmark"): from the end of a 30 s recording to the transcript in the
 * composer, against a bare upload of the same bytes to the same zero-delay transcriber, on both paths; goal ≤ 1.2×.
 *
 *   npm run build && npm run bench:transcription
 *   BENCH_APP_PORT=3850 BENCH_ROUNDS=3 BENCH_BARE_RUNS=5 BENCH_RECORD_SECONDS=30 npm run bench:transcription
 *
 * Started here (production build, server.mjs as `npm start` runs it): S on BENCH_APP_PORT (standard models, STT_PROVIDER
 * groq pointing at the fake), C on +1 (every model confidential, served by the development enclave, development trust
 * as playwright.config.ts configures it), and in a child process the fake LLM server (tests/helpers/fake-llm-server.ts,
 * whose transcription answers at once) on +10 and the development enclave (dev/enclave.ts, whose stand-in transcript
 * answers at once) on +11; a static page for the references on +12.
 *
 * Headless Chromium with a fake microphone playing espeak-ng's WAV (looped). Hush, per path: on /chat (a visitor), click
 * Dictate, wait for the button's timer to show 0:30, click Stop; timed in the page from that click (a capture-phase
 * listener) to the composer's value being set to the transcript (the textarea's value setter), so MediaRecorder's last
 * chunk, the upload (standard) or the EHBP encryption, relay and decryption (confidential), and React's update are
 * inside. Resource Timing splits it: click to the request's start, the request (upload, Hush's server, transcriber,
 * answer), the answer to the composer.
 * References, in the same browser (started with --disable-web-security, so a page of another origin may read the fake's
 * and the enclave's answers), from a Blob of the bytes that recording produced, to the transcript parsed
 * (bench/transcription-browser.ts): standard, a multipart upload straight to the fake's Groq path with groq-sdk's
 * fields; confidential, a bare EHBP upload: the same multipart, encrypted with the same ehbp library to the same
 * verified enclave's key, posted straight to its /v1/audio/transcriptions and the answer opened.
 * Interleaved: each round runs Hush standard, its reference, Hush confidential, its reference, in an order rotated per
 * round; a reference is the median of BENCH_BARE_RUNS uploads right after its recording. 3 rounds; medians; each
 * round's ratio printed.
 */
import { rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { appEnv, bundle, enclaveMultipart, makeWav, start, stopAll, waitFor } from "./transcription-stack";

const ROOT = path.resolve(import.meta.dirname, "..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BARE_RUNS = Number(process.env.BENCH_BARE_RUNS ?? 5);
const RECORD_SECONDS = Number(process.env.BENCH_RECORD_SECONDS ?? 30);
const APP_PORT = Number(process.env.BENCH_APP_PORT ?? 3350);
const CONF_PORT = APP_PORT + 1;
const LLM_PORT = APP_PORT + 10;
const ENCLAVE_PORT = APP_PORT + 11;
const STATIC_PORT = APP_PORT + 12;
const DATA_DIR = process.env.BENCH_DATA_DIR ?? ".data-bench-transcription";
const WAV = path.join(ROOT, "bench", "results", "transcription-microphone.wav.tmp");
const GOAL = 1.2;
const PEERS = { llmPort: LLM_PORT, enclavePort: ENCLAVE_PORT };
/** The confidential instance's Basic model (its CONFIDENTIAL_MODELS), which the chat page picks by default. */
const CONFIDENTIAL_MODEL = "llama3-8b-8192";

// ---------------------------------------------------------------- peers (child process)

async function runPeers(): Promise<void> {
  const { startFakeLlmServer } = await import("../tests/helpers/fake-llm-server");
  const { startDevEnclave } = await import("../dev/enclave");
  const llm = await startFakeLlmServer({ port: LLM_PORT, delayMs: 0 });
  const enclave = await startDevEnclave({ port: ENCLAVE_PORT, chunkDelayMs: 0 });
  console.log(`peers ready ${llm.url} ${enclave.url}`);
  const stop = () => void Promise.all([llm.close(), enclave.close()]).then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

// ---------------------------------------------------------------- measuring

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

/**
 * In every app page before its scripts: the time of a click on "Stop dictation" (capture phase, before the app's
 * handler), the time the composer's value is first set non-empty after it, and every chunk MediaRecorder hands out.
 */
function instrument(): void {
  const w = window as unknown as { __stopAt: number | null; __textAt: number | null; __recorded: Blob[]; __recorderStop: number; __recorderStopped: number };
  w.__stopAt = null;
  w.__textAt = null;
  w.__recorded = [];
  document.addEventListener(
    "click",
    (event) => {
      const button = (event.target as Element | null)?.closest?.("button");
      if (button?.getAttribute("aria-label") === "Stop dictation") w.__stopAt = performance.now();
    },
    true,
  );
  const native = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!;
  Object.defineProperty(HTMLTextAreaElement.prototype, "value", {
    configurable: true,
    get(this: HTMLTextAreaElement) {
      return native.get!.call(this);
    },
    set(this: HTMLTextAreaElement, value: string) {
      native.set!.call(this, value);
      if (w.__stopAt !== null && w.__textAt === null && value) w.__textAt = performance.now();
    },
  });
  const Native = window.MediaRecorder;
  window.MediaRecorder = class extends Native {
    constructor(stream: MediaStream, options?: MediaRecorderOptions) {
      super(stream, options);
      w.__recorded = [];
      this.addEventListener("dataavailable", (event) => {
        if (event.data.size > 0) w.__recorded.push(event.data);
      });
      this.addEventListener("stop", () => (w.__recorderStopped = performance.now()));
    }
    override stop(): void {
      w.__recorderStop = performance.now();
      super.stop();
    }
  };
}

interface HushSample {
  totalMs: number;
  /** Click to the transcription request's start (MediaRecorder's last chunk; for the confidential path the encryption). */
  toRequestMs: number;
  /** Of which: MediaRecorder.stop() called to its "stop" event (the recorder's last chunk, the browser's own work). */
  recorderMs: number;
  /** Of which: the "stop" event to the request's start (the Blob; confidential: multipart, EHBP encryption). */
  stoppedToRequestMs: number;
  /** The request: upload, Hush's server, the transcriber, the answer. */
  requestMs: number;
  /** The answer's end to the composer's value (decryption for the confidential path, React). */
  toComposerMs: number;
  bytes: number;
  base64: string;
  type: string;
  text: string;
  requestUrl: string;
  /** Other requests the page made after the click (path, start after the click + duration). */
  otherRequests: string[];
}

type Page = import("playwright-core").Page;

async function dictateOnce(page: Page, seconds: number, requestPath: string): Promise<HushSample> {
  await page.bringToFront();
  const input = page.getByPlaceholder("Message GPT");
  await input.fill("");
  await page.evaluate(() => {
    const w = window as unknown as { __stopAt: number | null; __textAt: number | null };
    w.__stopAt = null;
    w.__textAt = null;
    performance.clearResourceTimings();
  });
  await page.getByRole("button", { name: "Dictate", exact: true }).click();
  const label = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  await page.getByTestId("dictate-timer").filter({ hasText: label }).waitFor({ timeout: (seconds + 15) * 1000 });
  await page.getByRole("button", { name: "Stop dictation" }).click();
  await page.waitForFunction(() => (window as unknown as { __textAt: number | null }).__textAt !== null, undefined, { timeout: 60_000 });
  return page.evaluate(async (requestPath) => {
    const w = window as unknown as { __stopAt: number; __textAt: number; __recorded: Blob[]; __recorderStop: number; __recorderStopped: number };
    const entry = performance.getEntriesByType("resource").find((e) => e.name.includes(requestPath)) as PerformanceResourceTiming | undefined;
    if (!entry) throw new Error(`no resource timing for ${requestPath}`);
    const blob = new Blob(w.__recorded, { type: w.__recorded[0]?.type ?? "audio/webm" });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    const text = (document.querySelector("textarea") as HTMLTextAreaElement).value;
    return {
      totalMs: w.__textAt - w.__stopAt,
      toRequestMs: entry.startTime - w.__stopAt,
      recorderMs: w.__recorderStopped - w.__recorderStop,
      stoppedToRequestMs: entry.startTime - w.__recorderStopped,
      requestMs: entry.responseEnd - entry.startTime,
      toComposerMs: w.__textAt - entry.responseEnd,
      bytes: bytes.length,
      base64: btoa(binary),
      type: blob.type,
      text,
      requestUrl: entry.name,
      otherRequests: performance
        .getEntriesByType("resource")
        .filter((e) => e !== entry && e.startTime >= w.__stopAt)
        .map((e) => `${new URL(e.name).pathname} ${(e.startTime - w.__stopAt).toFixed(0)}+${e.duration.toFixed(0)} ms`),
    };
  }, requestPath);
}

/**
 * The split of the request on the server side, from Node (no browser): `runs` pairs, alternating, of the same bytes
 * through Hush and straight to the transcriber (standard: Hush's route vs a multipart upload to the fake; confidential:
 * the relay vs the enclave itself, both EHBP with Hush's client). Medians in ms.
 */
async function nodeSplit(
  name: "standard" | "confidential",
  sample: HushSample,
  runs: number,
  enclave: import("../lib/browser/confidential/attestation").VerifiedEnclave,
): Promise<{ hush: number; bare: number }> {
  const { sendConfidentialRequest } = await import("../lib/browser/confidential/ehbp-client");
  const bytes = Buffer.from(sample.base64, "base64");
  const hush: number[] = [];
  const bare: number[] = [];
  const timed = async (into: number[], fn: () => Promise<unknown>) => {
    const started = performance.now();
    await fn();
    into.push(performance.now() - started);
  };
  const json = async (res: Response) => {
    if (!res.ok) throw new Error(`${res.url} ${res.status}: ${await res.text()}`);
    return res.json();
  };
  const multipart = name === "confidential" ? await enclaveMultipart(bytes, sample.type) : null;
  const sealed = async (url: string, headers: Record<string, string>) => {
    const { response, authenticated } = await sendConfidentialRequest(enclave, url, multipart!.body, {
      headers: { "Content-Type": multipart!.contentType, Accept: "application/json", ...headers },
    });
    if (!authenticated) throw new Error(`${url} ${response.status}: ${await response.text()}`);
    return json(response);
  };
  for (let i = 0; i < runs; i++) {
    if (name === "standard") {
      const origin = `http://127.0.0.1:${APP_PORT}`;
      await timed(hush, async () => json(await fetch(sample.requestUrl, { method: "POST", headers: { "Content-Type": sample.type, Origin: origin }, body: bytes })));
      await timed(bare, async () => {
        const form = new FormData();
        form.set("file", new Blob([bytes], { type: sample.type }), "recording.webm");
        form.set("model", "whisper-large-v3-turbo");
        form.set("response_format", "verbose_json");
        return json(await fetch(`http://127.0.0.1:${LLM_PORT}/openai/v1/audio/transcriptions`, { method: "POST", body: form }));
      });
    } else {
      const origin = `http://127.0.0.1:${CONF_PORT}`;
      await timed(hush, () => sealed(`${origin}/api/confidential/audio/transcriptions`, { Origin: origin, "X-Hush-Model": CONFIDENTIAL_MODEL, "X-Hush-Audio-Seconds": "30" }));
      await timed(bare, () => sealed(`http://127.0.0.1:${ENCLAVE_PORT}/v1/audio/transcriptions`, { Authorization: "Bearer bench-enclave-key" }));
    }
  }
  return { hush: median(hush), bare: median(bare) };
}

async function main(): Promise<void> {
  const { chromium } = await import("playwright-core");
  const { verifyEnclave } = await import("../lib/browser/confidential/attestation");
  for (const suffix of ["-standard", "-confidential"]) rmSync(path.join(ROOT, DATA_DIR + suffix), { recursive: true, force: true });
  makeWav(WAV);
  const script = await bundle();
  const staticServer = http.createServer((req, res) => {
    if (req.url === "/bench.js") {
      res.writeHead(200, { "Content-Type": "text/javascript" });
      return void res.end(script);
    }
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end('<!doctype html><meta charset="utf-8"><title>transcription bench</title><script src="/bench.js"></script>');
  });
  await new Promise<void>((r) => staticServer.listen(STATIC_PORT, "127.0.0.1", r));

  const load = [os.loadavg()];
  start("npx", ["tsx", "--conditions=react-server", "bench/transcription.ts", "--peers"], { BENCH_APP_PORT: String(APP_PORT) }, "peers");
  const server = ["--require", "./deploy/http-timeouts.cjs", "server.mjs", "-H", "127.0.0.1", "-p"];
  start(process.execPath, [...server, String(APP_PORT)], appEnv(APP_PORT, DATA_DIR + "-standard", false, PEERS), "standard app");
  start(process.execPath, [...server, String(CONF_PORT)], appEnv(CONF_PORT, DATA_DIR + "-confidential", true, PEERS), "confidential app");
  await waitFor(`http://127.0.0.1:${LLM_PORT}/health`);
  await waitFor(`http://127.0.0.1:${ENCLAVE_PORT}/.well-known/tinfoil-attestation`);
  await Promise.all([waitFor(`http://127.0.0.1:${APP_PORT}/api/health`), waitFor(`http://127.0.0.1:${CONF_PORT}/api/health`)]);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--use-fake-device-for-media-stream", `--use-file-for-fake-audio-capture=${WAV}`, "--use-fake-ui-for-media-stream",
      "--disable-web-security",
    ],
  });
  const lines: string[] = [];
  try {
    const context = await browser.newContext({ permissions: ["microphone"], viewport: { width: 1280, height: 800 } });
    await context.addInitScript(instrument);
    const standard = await context.newPage();
    const confidential = await context.newPage();
    const reference = await context.newPage();
    await standard.goto(`http://127.0.0.1:${APP_PORT}/chat`);
    await confidential.goto(`http://127.0.0.1:${CONF_PORT}/chat`);
    await confidential.getByTestId("model-privacy-badge").filter({ hasText: "Verified (development)" }).waitFor({ timeout: 60_000 });
    await reference.goto(`http://127.0.0.1:${STATIC_PORT}/`);
    const enclaveHost = `127.0.0.1:${ENCLAVE_PORT}`;
    const document = await (await fetch(`http://127.0.0.1:${ENCLAVE_PORT}/.well-known/tinfoil-attestation`)).json();
    await reference.evaluate(({ document, enclaveHost }) => (window as never as Bench).transcriptionBench.verify(document, enclaveHost), { document, enclaveHost });
    const nodeEnclave = await verifyEnclave(document, { trust: "development", enclaveHost, configRepo: "" });

    const bareStandardUrl = `http://127.0.0.1:${LLM_PORT}/openai/v1/audio/transcriptions`;
    const bareConfidentialUrl = `http://127.0.0.1:${ENCLAVE_PORT}/v1/audio/transcriptions`;
    const paths = {
      standard: { page: standard, request: "/api/audio/transcriptions", bareUrl: bareStandardUrl, bare: "bareStandard" as const },
      confidential: { page: confidential, request: "/api/confidential/audio/transcriptions", bareUrl: bareConfidentialUrl, bare: "bareConfidential" as const },
    };
    type Name = keyof typeof paths;
    const bare = (name: Name, sample: HushSample, runs: number) =>
      reference.evaluate(
        ({ fn, base64, type, url, runs }) => (window as never as Bench).transcriptionBench[fn](base64, type, url, runs),
        { fn: paths[name].bare, base64: sample.base64, type: sample.type, url: paths[name].bareUrl, runs },
      );

    // Warm-up: a short recording on each path (routes compiled, connections open, the enclave verified), references.
    for (const name of Object.keys(paths) as Name[]) {
      const sample = await dictateOnce(paths[name].page, 3, paths[name].request);
      await reference.bringToFront();
      await bare(name, sample, 3);
      await nodeSplit(name, sample, 3, nodeEnclave);
    }

    type Result = { hush: HushSample[]; bare: number[]; nodeHush: number[]; nodeBare: number[] };
    const results: Record<Name, Result> = {
      standard: { hush: [], bare: [], nodeHush: [], nodeBare: [] },
      confidential: { hush: [], bare: [], nodeHush: [], nodeBare: [] },
    };
    const names = Object.keys(paths) as Name[];
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of round % 2 ? [...names].reverse() : names) {
        const sample = await dictateOnce(paths[name].page, RECORD_SECONDS, paths[name].request);
        await reference.bringToFront();
        const bareRun = await bare(name, sample, BARE_RUNS);
        results[name].hush.push(sample);
        results[name].bare.push(median(bareRun.ms));
        const split = await nodeSplit(name, sample, BARE_RUNS, nodeEnclave);
        results[name].nodeHush.push(split.hush);
        results[name].nodeBare.push(split.bare);
        load.push(os.loadavg());
        console.log(
          `  round ${round + 1} ${name.padEnd(12)} Hush ${ms(sample.totalMs)} (to request ${ms(sample.toRequestMs)}, request ${ms(sample.requestMs)}, to composer ${ms(sample.toComposerMs)}); ` +
            `bare ${ms(median(bareRun.ms))} [${bareRun.ms.map((x) => x.toFixed(1)).join(", ")}]; from Node: through Hush ${ms(split.hush)}, bare ${ms(split.bare)}; ` +
            `${sample.bytes} B ${sample.type}; "${sample.text.slice(0, 60)}"` +
            (sample.otherRequests.length ? `; other requests after the click: ${sample.otherRequests.join(", ")}` : ""),
        );
      }
    }

    const chromiumVersion = browser.version();
    lines.push(
      `Dictation: end of a ${RECORD_SECONDS} s recording to the transcript in the composer vs a bare upload of the same bytes (production build, Chromium ${chromiumVersion}, zero-delay transcribers)`,
      `  ${ROUNDS} rounds, interleaved; Hush 1 recording per path per round; reference = median of ${BARE_RUNS} uploads after each recording`,
      "  path          Hush (median)   reference (median)   ratio (median; rounds)        goal",
    );
    for (const name of names) {
      const r = results[name];
      const ratios = r.hush.map((h, i) => h.totalMs / r.bare[i]!);
      const m = median(ratios);
      lines.push(
        `  ${name.padEnd(13)} ${ms(median(r.hush.map((h) => h.totalMs))).padStart(12)}   ${ms(median(r.bare)).padStart(16)}     ` +
          `x${m.toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(", ")})`.padEnd(30) + ` ≤ ${GOAL}: ${m <= GOAL ? "met" : "missed"} (x${m.toFixed(3)})`,
      );
      const med = (f: (h: HushSample) => number) => ms(median(r.hush.map(f)));
      lines.push(
        `    Hush split (medians): click to request ${med((h) => h.toRequestMs)} (MediaRecorder stop() to its stop event ${med((h) => h.recorderMs)}, ` +
          `stop event to request ${med((h) => h.stoppedToRequestMs)}), request ${med((h) => h.requestMs)}, answer to composer ${med((h) => h.toComposerMs)}; ` +
          `recording ${Math.round(median(r.hush.map((h) => h.bytes)) / 1024)} KB ${r.hush[0]!.type}; added ${ms(median(r.hush.map((h, i) => h.totalMs - r.bare[i]!)))}`,
        `    from Node, same bytes, ${BARE_RUNS} pairs a round: ${name === "standard" ? "Hush's route" : "the relay"} ${ms(median(r.nodeHush))} vs ` +
          `${name === "standard" ? "the fake directly" : "the enclave directly"} ${ms(median(r.nodeBare))} (x${median(r.nodeHush.map((h, i) => h / r.nodeBare[i]!)).toFixed(2)}, ` +
          `+${ms(median(r.nodeHush.map((h, i) => h - r.nodeBare[i]!)))})`,
      );
    }
    const fmtLoad = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
    lines.push(`  load average (1, 5, 15 min): at start ${fmtLoad(load[0]!)}, at end ${fmtLoad(load.at(-1)!)}; ${os.cpus().length} CPUs`);
  } finally {
    await browser.close();
    staticServer.close();
    stopAll();
  }
  console.log(lines.join("\n"));
}

type Bench = {
  transcriptionBench: {
    verify(document: unknown, enclaveHost: string): Promise<void>;
    bareStandard(base64: string, type: string, url: string, runs: number): Promise<{ ms: number[]; text: string }>;
    bareConfidential(base64: string, type: string, url: string, runs: number): Promise<{ ms: number[]; text: string }>;
  };
};

if (process.argv.includes("--peers")) {
  void runPeers();
} else {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      stopAll();
      process.exit(1);
    },
  );
}
