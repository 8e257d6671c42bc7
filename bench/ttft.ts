/**
 * How much the app adds to the provider's time to first token.
 *
 * Starts the fake OpenAI-compatible server (tests/helpers) and the production build of the app
 * (`npm run build` first) wired to it, then measures, over N sequential requests each:
 *   direct: the openai SDK streaming straight from the fake server, time to the first delta;
 *   app:    POST /api/ns/chat with Accept: text/event-stream, time to the first `delta` event;
 *   app+pdf: the same with the 3-page e2e PDF's text attached as the turn's `document` (extracted here once,
 *            as the browser does: the server no longer reads PDFs, docs/issues.md #20).
 * The difference of medians is the app's overhead. Run: `npx tsx bench/ttft.ts [N]`.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import OpenAI from "openai";
import { PDFParse } from "pdf-parse";
import { WorkerMessageHandler } from "pdfjs-dist/legacy/build/pdf.worker.mjs";
import { extractPdfText, type PdfParseClass } from "../lib/shared/pdf/extract-text";
import { startFakeLlmServer } from "../tests/helpers/fake-llm-server";

const N = Number(process.argv[2] ?? 40);
const APP_PORT = 3400;

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { median: at(0.5), p90: at(0.9), min: s[0] ?? NaN };
}

async function waitFor(url: string, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${url}`);
}

async function appFirstDelta(body: unknown): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${APP_PORT}/api/ns/chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(body),
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let first = NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value;
    if (Number.isNaN(first) && seen.includes("event: delta")) first = performance.now() - t0;
  }
  return first;
}

async function main() {
  const llm = await startFakeLlmServer();
  const app = spawn(process.execPath, ["--require", "./deploy/http-timeouts.cjs", "server.mjs", "-p", String(APP_PORT), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: ".data-bench",
      DATABASE_URL: "",
      LLM_BASE_URL: `${llm.url}/v1`,
      LLM_API_KEY: "bench",
    },
    stdio: "ignore",
    detached: true,
  });
  try {
    await waitFor(`http://127.0.0.1:${APP_PORT}/chat`);
    const client = new OpenAI({ baseURL: `${llm.url}/v1`, apiKey: "bench", maxRetries: 0 });
    const messages = [{ role: "user" as const, content: "How fast is the first token?" }];
    const body = { messages, model: "llama3-8b-8192", chat_id: null, save_chat: false };
    (globalThis as unknown as { pdfjsWorker: unknown }).pdfjsWorker = { WorkerMessageHandler };
    const report = await extractPdfText(PDFParse as unknown as PdfParseClass, new Uint8Array(readFileSync("tests/fixtures/e2e-report.pdf")), {
      maxBytes: 10 * 1024 * 1024,
      maxPages: 100,
      maxChars: 60_000,
      maxInflatedBytes: 100 * 1024 * 1024,
    });
    const pdfBody = { ...body, document: { name: "r.pdf", text: report.text, truncated: report.truncated } };

    // Warm up both paths (JIT, connection pools).
    for (let i = 0; i < 5; i++) {
      await appFirstDelta(body);
      await appFirstDelta(pdfBody);
    }
    const direct: number[] = [];
    const viaApp: number[] = [];
    const viaAppPdf: number[] = [];
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      const stream = await client.chat.completions.create({ model: "fake-model", messages, stream: true });
      let first = NaN;
      for await (const chunk of stream) {
        if (Number.isNaN(first) && chunk.choices[0]?.delta?.content) first = performance.now() - t0;
      }
      direct.push(first);
      viaApp.push(await appFirstDelta(body));
      viaAppPdf.push(await appFirstDelta(pdfBody));
    }
    const d = stats(direct);
    const a = stats(viaApp);
    const p = stats(viaAppPdf);
    const fmt = (x: number) => x.toFixed(1).padStart(7);
    console.log(`time to first token, ms (N=${N}, sequential)`);
    console.log(`path          median     p90     min`);
    console.log(`direct      ${fmt(d.median)} ${fmt(d.p90)} ${fmt(d.min)}`);
    console.log(`app         ${fmt(a.median)} ${fmt(a.p90)} ${fmt(a.min)}`);
    console.log(`app + PDF   ${fmt(p.median)} ${fmt(p.p90)} ${fmt(p.min)}`);
    console.log(`app overhead (median): ${(a.median - d.median).toFixed(1)} ms; with a 3-page PDF: ${(p.median - d.median).toFixed(1)} ms`);
  } finally {
    if (app.pid) process.kill(-app.pid, "SIGTERM");
    await llm.close();
  }
  process.exit(0);
}

void main();
