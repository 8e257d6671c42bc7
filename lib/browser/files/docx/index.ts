import { FileError, type FileErrorCode } from "@/lib/browser/files/errors";
import { keepChars, type FileText } from "@/lib/browser/files/read-text";

export interface DocxLimits {
  maxBytes: number;
  maxChars: number;
  timeoutMs: number;
  maxInflatedBytes: number;
}

type WorkerReply = { hush: "docx" } & ({ type: "ready" } | { type: "done"; text: string } | { type: "failed"; code: FileErrorCode });

/** Extract a Word document's text in its own worker, stopped at `limits.timeoutMs`. @throws FileError; AbortError on `signal` */
export async function extractDocxInBrowser(file: File, limits: DocxLimits, signal?: AbortSignal): Promise<FileText> {
  if (file.size > limits.maxBytes) throw new FileError("too_large", { maxBytes: limits.maxBytes });
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    throw new FileError("read_failed");
  }
  signal?.throwIfAborted();
  // A classic worker, as the PDF worker (lib/browser/pdf/index.ts explains why).
  const worker = new Worker(new URL("./docx.worker.ts", import.meta.url), { name: "hush-docx" });
  try {
    const text = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new FileError("timeout")), limits.timeoutMs);
      const fail = (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      };
      signal?.addEventListener("abort", () => fail(signal.reason ?? new DOMException("Aborted", "AbortError")), { once: true });
      worker.onerror = (event) => {
        event.preventDefault();
        fail(new FileError("unreadable"));
      };
      worker.onmessageerror = () => fail(new FileError("unreadable"));
      worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        const reply = event.data;
        if (!reply || typeof reply !== "object" || reply.hush !== "docx") return;
        if (reply.type === "ready") worker.postMessage({ hush: "docx", bytes, maxInflatedBytes: limits.maxInflatedBytes }, [bytes.buffer]);
        else if (reply.type === "done") {
          clearTimeout(timer);
          resolve(reply.text);
        } else fail(new FileError(reply.code));
      };
    });
    return keepChars(text, limits.maxChars);
  } finally {
    worker.terminate();
  }
}
