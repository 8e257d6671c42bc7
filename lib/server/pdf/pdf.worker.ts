/**
 * The server's PDF worker thread (docs/product.md §7: the spec's `file`, read for a standard model), started by
 * ./pool.ts with a hard heap limit (resourceLimits) and terminated by it at PDF_PARSE_TIMEOUT_MS. It reads with
 * lib/shared/pdf/extract-text.ts on pdf-parse's Node build, exactly as the browser's PDF worker does
 * (lib/browser/pdf/pdf.worker.ts): pdf.js's worker code from pdfjs-dist runs on this thread as
 * `globalThis.pdfjsWorker`, so the decompression limit (lib/shared/pdf/inflate-guard.ts) counts its decoders.
 * Nothing from this thread is logged (pdf.js warnings can quote the document); it imports nothing server-only.
 *
 * Protocol (lib/server/workers/pool.ts): receives { id, job: { base64, limits } } (the data URL's payload, decoded
 * here, off the request thread) and answers { id, ok: true, result: PdfText } or { id, ok: false, code: PdfErrorCode,
 * maxBytes? }. One job at a time.
 */
import { parentPort } from "node:worker_threads";
import { isPdfError } from "@/lib/shared/pdf/errors";
import { extractPdfText, type PdfLimits } from "@/lib/shared/pdf/extract-text";
import { withoutCanvas } from "./without-canvas";

for (const level of ["log", "info", "warn", "error", "debug", "trace"] as const) console[level] = () => {};
// pdf.js loads its Node canvas (skia: 15–25 MB resident in this worker, measured) when it is imported; reading text never draws.
withoutCanvas();
const { PDFParse } = await import("pdf-parse");
const { WorkerMessageHandler } = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
(globalThis as typeof globalThis & { pdfjsWorker?: unknown }).pdfjsWorker = { WorkerMessageHandler };

interface Job {
  base64: string;
  limits: Omit<PdfLimits, "timeoutMs">;
}

parentPort?.on("message", async ({ id, job }: { id: number; job: Job }) => {
  try {
    const bytes = new Uint8Array(Buffer.from(job.base64, "base64"));
    const result = await extractPdfText(PDFParse, bytes, job.limits);
    parentPort?.postMessage({ id, ok: true, result });
  } catch (error) {
    if (isPdfError(error)) parentPort?.postMessage({ id, ok: false, code: error.code, maxBytes: error.maxBytes });
    else parentPort?.postMessage({ id, ok: false, code: "unreadable" });
  }
});
