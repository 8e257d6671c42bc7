/// <reference lib="webworker" />
/**
 * The browser's PDF worker: a dedicated Web Worker per PDF, started by
 * lib/browser/pdf/index.ts and terminated by it at the deadline, so a hostile PDF cannot hang the page.
 * pdf-parse (its browser build, which carries pdf.js's API) reads the file with lib/shared/pdf/extract-text.ts,
 * the code the server runs for the spec's `file`. pdf.js's worker code runs here on this thread: it is imported
 * statically from pdfjs-dist and handed over as `globalThis.pdfjsWorker`, pdf.js's documented "fake worker"
 * (no nested worker, no blob: URL, no eval, no fetch of fonts or CMaps). Nothing from this thread is logged:
 * pdf.js warnings can quote the document.
 *
 * Protocol (every message carries hush: "pdf", because pdf.js's worker code, once loaded in a worker, also
 * listens and posts on this port): posts { type: "ready" } once loaded; then receives { bytes: Uint8Array
 * (transferred), limits } and answers { type: "done", result: PdfText } or { type: "failed", code, maxBytes? }.
 */
import { PDFParse } from "pdf-parse";
import { WorkerMessageHandler } from "pdfjs-dist/legacy/build/pdf.worker.mjs";
import { isPdfError } from "@/lib/shared/pdf/errors";
import { extractPdfText, type PdfParseClass, type PdfLimits } from "@/lib/shared/pdf/extract-text";

for (const level of ["log", "info", "warn", "error", "debug", "trace"] as const) console[level] = () => {};
(globalThis as unknown as { pdfjsWorker: unknown }).pdfjsWorker = { WorkerMessageHandler };

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.addEventListener("message", async (event: MessageEvent<{ hush?: string; bytes: Uint8Array; limits: Omit<PdfLimits, "timeoutMs"> }>) => {
  if (event.data?.hush !== "pdf") return;
  try {
    const result = await extractPdfText(PDFParse as unknown as PdfParseClass, event.data.bytes, event.data.limits);
    scope.postMessage({ hush: "pdf", type: "done", result });
  } catch (error) {
    if (isPdfError(error)) scope.postMessage({ hush: "pdf", type: "failed", code: error.code, maxBytes: error.maxBytes });
    else scope.postMessage({ hush: "pdf", type: "failed", code: "unreadable" });
  }
});

scope.postMessage({ hush: "pdf", type: "ready" });
