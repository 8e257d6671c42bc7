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
 * Part 2, the server (docs/issues.md #39): one `server.mjs` of the production build (embedded defaults, the fake
 * LLM), its resident set sampled every 20 ms from /proc while five spec-shaped chat requests with a PDF in `file`
 * (the bomb and its four variants; reference: five copies of the ordinary PDF) are sent at once from five clients
 * and plain turns are sent one after another until they are all answered: their statuses, the plain turns'
 * times, and the peak over the idle server's resident set.
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
  const { startFakeLlmServer } = await import("../tests/helpers/fake-llm-server");
  const llm = await startFakeLlmServer();
  // As `npm start` runs it (its command and environment: bench/perf/setup.ts startCommand). TRUSTED_PROXIES: the
  // bench is its own proxy, so X-Forwarded-For tells its clients apart (the server reads one PDF per client at a time).
  const { startCommand } = await import("./perf/setup");
  const start = startCommand();
  const app: ChildProcess = spawn(start.cmd, [...start.args, "-p", String(PORT), "-H", "127.0.0.1"], {
    cwd: ROOT,
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      ...start.env,
      NODE_ENV: "production",
      APP_URL: `http://127.0.0.1:${PORT}`,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789abcdef0123456789",
      LLM_BASE_URL: `${llm.url}/v1`,
      LLM_API_KEY: "bench",
      QUOTA_VISITOR_PER_DAY: "100000",
      TRUSTED_PROXIES: "127.0.0.1",
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
      if (i > 480) throw new Error("the server did not come up");
      await new Promise((r) => setTimeout(r, 250));
    }
    const pid = listener(PORT);
    let client = 0;
    const chat = async (file: Buffer | null, question: string): Promise<{ status: number; ms: number }> => {
      const body = {
        messages: [{ role: "user", content: question }],
        model: "llama3-8b-8192",
        file: file && { name: "f.pdf", type: "application/pdf", content: `data:application/pdf;base64,${file.toString("base64")}` },
        chat_id: null,
        save_chat: false,
      };
      const start = performance.now();
      const res = await fetch(`${base}/api/ns/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${(client++ % 250) + 1}` },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - start };
    };
    const list = await files();
    const ordinary = readFileSync(list[0]!.file);
    // Warm: plain turns and one ordinary PDF (JIT, connections; the PDF worker then leaves after 30 s idle).
    for (let i = 0; i < 5; i++) await chat(null, "warm");
    await chat(ordinary, "warm");
    await new Promise((r) => setTimeout(r, 35_000));
    const idle = rssMiB(pid);
    const rows: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const sets = [
        { name: "5 × multipage.pdf", payloads: [0, 1, 2, 3, 4].map(() => ordinary) },
        { name: "the bomb and its 4 variants (1 GiB each)", payloads: list.slice(1).map((f) => readFileSync(f.file)) },
      ];
      for (const { name, payloads } of sets) {
        let peak = rssMiB(pid);
        const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20);
        const started = performance.now();
        const pdfs = Promise.all(payloads.map((bytes) => chat(bytes, "Summarise")));
        const plain: number[] = [];
        let done = false;
        void pdfs.then(() => (done = true));
        while (!done) {
          plain.push((await chat(null, "A plain turn")).ms);
          await new Promise((r) => setTimeout(r, 100));
        }
        const results = await pdfs;
        clearInterval(sampler);
        peak = Math.max(peak, rssMiB(pid));
        rows.push(
          `| ${round + 1} | ${name} | ${[...new Set(results.map((r) => r.status))].join(", ")} | ${((performance.now() - started) / 1000).toFixed(1)} s | ` +
            `${plain.length}, median ${median(plain).toFixed(0)} ms, max ${Math.max(...plain).toFixed(0)} ms | ${peak.toFixed(0)} MiB | +${(peak - idle).toFixed(0)} MiB |`,
        );
      }
    }
    console.log(`\nPart 2: the server (server.mjs, pid ${pid}, idle ${idle.toFixed(0)} MiB after warm-up and the PDF worker's idle exit), five spec-shaped \`file\` requests at once from five clients, plain turns sent one after another meanwhile, RSS sampled every 20 ms`);
    console.log("| round | files | statuses | all answered in | plain turns meanwhile | peak RSS | over idle |\n|---|---|---|---|---|---|---|");
    for (const row of rows) console.log(row);
  } finally {
    try {
      process.kill(-app.pid!, "SIGTERM");
    } catch {
      // gone
    }
    await llm.close();
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
