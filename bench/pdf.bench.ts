/**
 * PDF extraction timings: `npx tsx bench/pdf.bench.ts`.
 *
 * 1. Cold (first job: worker start + pdf.js load) and warm extraction times of the fixtures and, when
 *    present, two larger Debian documentation PDFs, through lib/pdf's worker pool.
 * 2. The same documents parsed in-process with pdf-parse, to show the worker's overhead.
 * 3. A hostile PDF (one page whose compressed content stream expands to millions of operators):
 *    how long the deadline takes to fire, and how long the main event loop is blocked, in the worker
 *    pool versus in-process.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { PDFParse } from "pdf-parse";
import { extractPdfTextWithLimits, shutdownPdfWorkers, type PdfLimits } from "@/lib/pdf/extract";

const LIMITS: PdfLimits = {
  maxBytes: 10 * 1024 * 1024,
  maxPages: 100,
  maxChars: 60_000,
  timeoutMs: 15_000,
  maxInflatedBytes: 100 * 1024 * 1024,
};
const RUNS = 7;

const documents = [
  path.join(__dirname, "../tests/fixtures/e2e-report.pdf"),
  path.join(__dirname, "../tests/fixtures/multipage.pdf"),
  "/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf",
  "/usr/share/doc/libtasn1-doc/libtasn1.pdf",
].filter((f) => existsSync(f));

const ms = (t: number) => `${t.toFixed(0)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

/** A one-page PDF whose content stream is `ops` text operators, deflated. */
function hostilePdf(ops: number): Buffer {
  const content = deflateSync(Buffer.from("BT /F1 12 Tf 72 720 Td (Hush) Tj ET\n".repeat(ops)));
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    null,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n")];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk =
      body === null
        ? Buffer.concat([
            Buffer.from(`${i + 1} 0 obj\n<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`),
            content,
            Buffer.from("\nendstream\nendobj\n"),
          ])
        : Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)];
  parts.push(Buffer.from(`${xref.join("")}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** Longest gap between 10 ms ticks while `fn` runs: how long the main event loop was blocked. */
async function blocked<T>(fn: () => Promise<T>): Promise<[number, T]> {
  let last = performance.now();
  let worst = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 10);
  try {
    const value = await fn();
    worst = Math.max(worst, performance.now() - last);
    return [worst, value];
  } finally {
    clearInterval(tick);
  }
}

async function inProcess(bytes: Buffer): Promise<number> {
  const parser = new PDFParse({ data: new Uint8Array(bytes), verbosity: 0 });
  try {
    const r = await parser.getText({ first: LIMITS.maxPages });
    return r.total;
  } finally {
    await parser.destroy();
  }
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${RUNS} warm runs each, median reported\n`);
  console.log("document                         size     pages  chars   cold    warm(worker)  warm(in-process)");
  for (const file of documents) {
    const bytes = readFileSync(file);
    await shutdownPdfWorkers();
    const [cold, first] = await time(() => extractPdfTextWithLimits(bytes, LIMITS));
    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) warm.push((await time(() => extractPdfTextWithLimits(bytes, LIMITS)))[0]);
    const local: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) local.push((await time(() => inProcess(bytes)))[0]);
    local.shift(); // first in-process run loads pdf.js
    console.log(
      `${path.basename(file).padEnd(32)} ${(bytes.length / 1024).toFixed(0).padStart(4)} KB  ` +
        `${`${first.pages}/${first.totalPages}`.padStart(5)}  ${String(first.text.length).padStart(6)}  ` +
        `${ms(cold).padStart(7)}  ${ms(median(warm)).padStart(8)}      ${ms(median(local)).padStart(8)}`,
    );
  }

  const ops = 300_000;
  const hostile = hostilePdf(ops);
  const deadline = 1_000;
  console.log(`\nhostile PDF: ${(hostile.length / 1024).toFixed(0)} KB, ${ops.toLocaleString("en-US")} operators on one page, deadline ${deadline} ms`);
  const [workerBlocked, [workerTime, workerOutcome]] = await blocked(() =>
    time(() =>
      extractPdfTextWithLimits(hostile, { ...LIMITS, timeoutMs: deadline }).then(
        (r) => `text (${r.text.length} chars)`,
        (e: Error & { code?: string }) => e.code ?? e.message,
      ),
    ),
  );
  console.log(`  worker pool        : ${workerOutcome} after ${ms(workerTime)}; main loop blocked at most ${ms(workerBlocked)}`);

  // What a race against a timer plus destroy() would do: the timer cannot fire while pdf.js is busy.
  const [localBlocked, [localTime, localOutcome]] = await blocked(() =>
    time(() => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      return Promise.race([
        inProcess(hostile).then((pages) => `parse finished (${pages} page)`),
        new Promise<string>((resolve) => (timer = setTimeout(() => resolve("timer fired"), deadline))),
      ]).finally(() => clearTimeout(timer));
    }),
  );
  console.log(`  in-process + timer : ${localOutcome} after ${ms(localTime)}; main loop blocked at most ${ms(localBlocked)}`);
  await shutdownPdfWorkers();
  process.exit(0);
}

void main();
