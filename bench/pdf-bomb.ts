/**
 * Peak memory under PDF decompression bombs (docs/issues.md #22, "Compressed-stream bombs"), each figure a
 * ratio against a reference measured in the same run, interleaved, 3 rounds (BENCH_ROUNDS), medians.
 *
 *   npx next build && npm run bench:pdf-bomb            # both parts
 *   npm run bench:pdf-bomb -- --part extract             # part 1 only (no build needed)
 *
 * Part 1, extraction: each file is read by lib/shared/pdf/extract-text.ts (the code the browser's PDF worker runs,
 * with its limits from lib/server/config.ts) in a fresh Node process, which reports its peak resident set
 * (VmHWM) and wall time. Files: the 1 GiB bomb of tests/helpers/pdf-bomb.ts and its four variants of
 * docs/issues.md #22 (escaped filter name, filter array, indirect filter, filter in an object stream); reference: an
 * ordinary 8-page PDF (tests/fixtures/multipage.pdf).
 *
 * Part 2, the server: one `next start` of the production build (embedded defaults), its resident set sampled
 * every 20 ms from /proc while each bomb is sent to every route that takes a body from a visitor (the chat
 * route, as JSON with the bytes base64 in `file`, and raw as application/pdf), against the same requests
 * carrying the ordinary PDF. The server reads no PDF (the browser does), so both should be refusals.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { BOMB_VARIANTS, pdfBomb, pdfBombVariant } from "../tests/helpers/pdf-bomb";

const ROOT = path.resolve(import.meta.dirname, "..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_APP_PORT ?? 3320);
const MiB = 1024 * 1024;
const part = process.argv.includes("--part") ? process.argv[process.argv.indexOf("--part") + 1] : "all";

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The child: extract one file, print { code, ms, peakMiB }. */
async function child(file: string): Promise<void> {
  const { PDFParse } = await import("pdf-parse");
  const { WorkerMessageHandler } = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
  (globalThis as unknown as { pdfjsWorker: unknown }).pdfjsWorker = { WorkerMessageHandler };
  const { extractPdfText } = await import("../lib/shared/pdf/extract-text");
  const config = (await import("../lib/server/config")).getConfig();
  const bytes = new Uint8Array(readFileSync(file));
  const start = performance.now();
  let code = "ok";
  try {
    await extractPdfText(PDFParse as never, bytes, {
      maxBytes: config.PDF_MAX_BYTES,
      maxPages: config.PDF_MAX_PAGES,
      maxChars: config.PDF_MAX_TEXT_CHARS,
      maxInflatedBytes: config.PDF_MAX_INFLATED_BYTES,
    });
  } catch (error) {
    code = (error as { code?: string }).code ?? String(error);
  }
  const ms = performance.now() - start;
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))![1]!;
  process.stdout.write(JSON.stringify({ code, ms, peakMiB: Number(hwm) / 1024 }));
}

async function files(): Promise<{ name: string; file: string }[]> {
  const os = await import("node:os");
  const fs = await import("node:fs");
  const out = [{ name: "reference: multipage.pdf", file: path.join(ROOT, "tests/fixtures/multipage.pdf") }];
  const put = (name: string, bytes: Buffer) => {
    const file = path.join(os.tmpdir(), `hush-bench-bomb-${name.replace(/[^a-z-]/g, "")}.pdf`);
    fs.writeFileSync(file, bytes);
    out.push({ name, file });
  };
  put("plain /FlateDecode", await pdfBomb());
  for (const variant of BOMB_VARIANTS) put(variant, await pdfBombVariant(variant));
  return out;
}

async function extractPart(): Promise<void> {
  const list = await files();
  const results = new Map<string, { code: string; ms: number[]; peak: number[]; size: number }>();
  for (let round = 0; round < ROUNDS; round++) {
    const order = list.map((_, i) => list[(i + round) % list.length]!);
    for (const { name, file } of order) {
      const run = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", import.meta.filename, "--child", file], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 20 });
      if (run.status !== 0) throw new Error(`${name}: child failed\n${run.stderr}`);
      const r = JSON.parse(run.stdout) as { code: string; ms: number; peakMiB: number };
      const entry = results.get(name) ?? { code: r.code, ms: [], peak: [], size: readFileSync(file).byteLength };
      entry.ms.push(r.ms);
      entry.peak.push(r.peakMiB);
      results.set(name, entry);
    }
  }
  const ref = results.get(list[0]!.name)!;
  console.log(`\nPart 1: extraction in a fresh process (lib/shared/pdf/extract-text.ts), medians of ${ROUNDS} rounds`);
  console.log("| file | size | result | peak RSS | × reference | time |\n|---|---|---|---|---|---|");
  for (const { name } of list) {
    const r = results.get(name)!;
    console.log(`| ${name} | ${(r.size / MiB).toFixed(2)} MB | ${r.code} | ${median(r.peak).toFixed(0)} MiB | ×${(median(r.peak) / median(ref.peak)).toFixed(2)} | ${median(r.ms).toFixed(0)} ms |`);
  }
}

function rssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
  } catch {
    return 0;
  }
}

/** The pid of the process listening on `port` (next start runs its server in a child of npx). */
function listener(port: number): number {
  const out = spawnSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" }).stdout;
  const pid = /pid=(\d+)/.exec(out)?.[1];
  if (!pid) throw new Error(`nothing listens on ${port}`);
  return Number(pid);
}

async function serverPart(): Promise<void> {
  const dataDir = path.join(ROOT, ".data-bench-pdf-bomb");
  rmSync(dataDir, { recursive: true, force: true });
  // As `npm start` runs it. No model is called: a provider that does not answer is enough.
  const app: ChildProcess = spawn(process.execPath, ["--require", "./deploy/http-timeouts.cjs", "server.mjs", "-p", String(PORT), "-H", "127.0.0.1"], {
    cwd: ROOT,
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      APP_URL: `http://127.0.0.1:${PORT}`,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789abcdef0123456789",
      LLM_BASE_URL: "http://127.0.0.1:9/v1",
      LOG_LEVEL: "warn",
    },
  });
  try {
    const base = `http://127.0.0.1:${PORT}`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).status < 500) break;
      } catch {
        // not up yet
      }
      if (i > 480) throw new Error("next start did not come up");
      await new Promise((r) => setTimeout(r, 250));
    }
    const pid = listener(PORT);
    const idle = rssMiB(pid);
    const list = await files();
    const statuses = new Map<string, Set<number>>();
    const peaks = new Map<string, number[]>();
    const send = async (name: string, bytes: Buffer) => {
      const json = JSON.stringify({ messages: [{ role: "user", content: "Summarize this file." }], model: "basic", file: bytes.toString("base64") });
      const requests = [
        fetch(`${base}/api/ns/chat`, { method: "POST", headers: { "content-type": "application/json", origin: base }, body: json }),
        fetch(`${base}/api/ns/chat`, { method: "POST", headers: { "content-type": "application/pdf", origin: base }, body: new Uint8Array(bytes) }),
      ];
      for (const res of await Promise.all(requests)) {
        await res.arrayBuffer();
        statuses.set(name, (statuses.get(name) ?? new Set()).add(res.status));
      }
    };
    for (let round = 0; round < ROUNDS; round++) {
      const order = list.map((_, i) => list[(i + round) % list.length]!);
      for (const { name, file } of order) {
        const bytes = readFileSync(file);
        let peak = rssMiB(pid);
        const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20);
        for (let i = 0; i < 4; i++) await send(name, bytes);
        clearInterval(sampler);
        peak = Math.max(peak, rssMiB(pid));
        peaks.set(name, [...(peaks.get(name) ?? []), peak]);
      }
    }
    const ref = median(peaks.get(list[0]!.name)!);
    console.log(`\nPart 2: the server (next start, pid ${pid}, ${idle.toFixed(0)} MiB after start-up) sent each file 4 times to 2 requests, RSS sampled every 20 ms, medians of ${ROUNDS} rounds`);
    console.log("| file | statuses | peak RSS | × reference |\n|---|---|---|---|");
    for (const { name } of list) {
      const p = median(peaks.get(name)!);
      console.log(`| ${name} | ${[...statuses.get(name)!].join(", ")} | ${p.toFixed(0)} MiB | ×${(p / ref).toFixed(2)} |`);
    }
  } finally {
    try {
      process.kill(-app.pid!, "SIGTERM");
    } catch {
      // gone
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.argv.includes("--child")) return child(process.argv[process.argv.indexOf("--child") + 1]!);
  if (part === "all" || part === "extract") await extractPart();
  if (part === "all" || part === "server") await serverPart();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
