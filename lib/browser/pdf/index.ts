// A PDF's bytes and text stay on the device; only the extracted text is sent. Each PDF gets its own worker.
import { PdfError, type PdfErrorCode } from "@/lib/shared/pdf/errors";
import type { PdfLimits, PdfText } from "@/lib/shared/pdf/extract-text";

export type { PdfLimits, PdfText };

type WorkerReply = { hush: "pdf" } & ({ type: "ready" } | { type: "done"; result: PdfText } | { type: "failed"; code: PdfErrorCode; maxBytes?: number });

/** Extract `file`'s text within `limits`. @throws PdfError (its codes, timeout, read_failed); AbortError on `signal` */
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

  // A classic worker: Turbopack's worker bootstrap loads chunks with importScripts(), which a module worker refuses.
  const worker = new Worker(new URL("./pdf.worker.ts", import.meta.url), { name: "hush-pdf" });
  try {
    return await new Promise<PdfText>((resolve, reject) => {
      const timer = setTimeout(() => reject(new PdfError("timeout")), limits.timeoutMs);
      const fail = (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      };
      signal?.addEventListener("abort", () => fail(signal.reason ?? new DOMException("Aborted", "AbortError")), { once: true });
      worker.onerror = (event) => {
        event.preventDefault();
        fail(new PdfError("unreadable"));
      };
      worker.onmessageerror = () => fail(new PdfError("unreadable"));
      worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        const reply = event.data;
        // pdf.js's worker code also talks on this port: only messages of ours count.
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

export function truncationNotice(result: PdfText, maxChars: number): string | null {
  if (!result.truncated) return null;
  return result.totalPages > result.pages
    ? `Only the first ${result.pages} of ${result.totalPages} pages of this PDF were read.`
    : `This PDF is long: only its first ${maxChars.toLocaleString("en-US")} characters were read.`;
}
