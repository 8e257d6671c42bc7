/// <reference lib="webworker" />
// The browser's PDF worker, one per PDF, terminated at the deadline. pdf.js's worker code runs on this thread as its
// "fake worker"; every message carries hush: "pdf", as pdf.js also talks on this port. Nothing is logged: pdf.js warnings can quote the document.
import { PDFParse } from "pdf-parse";
import { WorkerMessageHandler } from "pdfjs-dist/legacy/build/pdf.worker.mjs";
import { isPdfError } from "@/lib/shared/pdf/errors";
import { extractPdfText, type PdfLimits } from "@/lib/shared/pdf/extract-text";

for (const level of ["log", "info", "warn", "error", "debug", "trace"] as const) console[level] = () => {};
(globalThis as typeof globalThis & { pdfjsWorker?: unknown }).pdfjsWorker = { WorkerMessageHandler };

// The DOM lib types `self` as a Window; in a worker it is the worker's scope.
// eslint-disable-next-line no-restricted-syntax
const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.addEventListener("message", async (event: MessageEvent<{ hush?: string; bytes: Uint8Array; limits: Omit<PdfLimits, "timeoutMs"> }>) => {
  if (event.data?.hush !== "pdf") return;
  try {
    const result = await extractPdfText(PDFParse, event.data.bytes, event.data.limits);
    scope.postMessage({ hush: "pdf", type: "done", result });
  } catch (error) {
    if (isPdfError(error)) scope.postMessage({ hush: "pdf", type: "failed", code: error.code, maxBytes: error.maxBytes });
    else scope.postMessage({ hush: "pdf", type: "failed", code: "unreadable" });
  }
});

scope.postMessage({ hush: "pdf", type: "ready" });
