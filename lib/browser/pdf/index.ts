/**
 * Read a PDF's text in the browser: the file's bytes and its text stay on
 * the user's device; only the extracted text is sent, as the turn's `document` (to Hush's server for a
 * standard model, encrypted to the enclave for a confidential one). Each PDF gets its own Web Worker
 * (./pdf.worker.ts), terminated when done or at the deadline. The reading itself is lib/shared/pdf/extract-text.ts
 * on pdf-parse, the same code the server runs for the spec's `file` (lib/server/pdf).
 */
import { PdfError, type PdfErrorCode } from "@/lib/shared/pdf/errors";
import type { PdfLimits, PdfText } from "@/lib/shared/pdf/extract-text";

export type { PdfLimits, PdfText };

type WorkerReply = { hush: "pdf" } & ({ type: "ready" } | { type: "done"; result: PdfText } | { type: "failed"; code: PdfErrorCode; maxBytes?: number });

/**
 * Extract `file`'s text within `limits`. Checks the type and size before reading a byte; the wall-clock
 * limit (limits.timeoutMs) runs from the worker's start and covers loading pdf.js and parsing.
 * @throws PdfError not_pdf (not application/pdf, or no %PDF- header) | too_large | inflate_limit |
 *   encrypted | unreadable | no_text | timeout; read_failed when the file cannot be read;
 *   DOMException "AbortError" when `signal` aborts (the worker is terminated)
 */
export async function extractPdfInBrowser(file: File, limits: PdfLimits, signal?: AbortSignal): Promise<PdfText> {
  if (file.type !== "application/pdf" && !/\.pdf$/i.test(file.name)) throw new PdfError("not_pdf");
  if (file.size > limits.maxBytes) throw new PdfError("too_large", { maxBytes: limits.maxBytes });
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    throw new PdfError("read_failed");
  }
  signal?.throwIfAborted();

  // A classic worker, not `type: "module"`: Turbopack's worker bootstrap (static/chunks/turbopack-worker-*.js)
  // loads the worker's chunks with importScripts(), which a module worker refuses, so a module worker
  // never ran a line of ./pdf.worker.ts in the production build (it posted no "ready").
  const worker = new Worker(new URL("./pdf.worker.ts", import.meta.url), { name: "hush-pdf" });
  try {
    return await new Promise<PdfText>((resolve, reject) => {
      const timer = setTimeout(() => reject(new PdfError("timeout")), limits.timeoutMs);
      const fail = (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      };
      signal?.addEventListener("abort", () => fail(signal.reason ?? new DOMException("Aborted", "AbortError")), { once: true });
      // The worker could not start or crashed (e.g. out of memory): the file is unreadable here.
      worker.onerror = (event) => {
        event.preventDefault();
        fail(new PdfError("unreadable"));
      };
      worker.onmessageerror = () => fail(new PdfError("unreadable"));
      worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        const reply = event.data;
        // pdf.js's worker code, loaded in this worker, also talks on the worker's port (its own handshake):
        // only messages of ours count.
        if (!reply || typeof reply !== "object" || reply.hush !== "pdf") return;
        if (reply.type === "ready") {
          const { maxBytes, maxPages, maxChars, maxInflatedBytes } = limits;
          worker.postMessage({ hush: "pdf", bytes, limits: { maxBytes, maxPages, maxChars, maxInflatedBytes } }, [bytes.buffer]);
        } else if (reply.type === "done") {
          clearTimeout(timer);
          resolve(reply.result);
        } else {
          fail(new PdfError(reply.code, { maxBytes: reply.maxBytes }));
        }
      };
    });
  } finally {
    worker.terminate();
  }
}

/** The line shown under a sent message when only part of its PDF was read, or null. */
export function truncationNotice(result: PdfText, maxChars: number): string | null {
  if (!result.truncated) return null;
  return result.totalPages > result.pages
    ? `Only the first ${result.pages} of ${result.totalPages} pages of this PDF were read.`
    : `This PDF is long: only its first ${maxChars.toLocaleString("en-US")} characters were read.`;
}
