/**
 * PDF text extraction with hard limits on size, pages, characters and time. Config-free (limits are
 * passed in) so scripts can use it without lib/config.ts; lib/pdf/index.ts fills in the configured
 * limits.
 */
import { PdfError } from "./errors";
import { PdfJobFailure, PdfWorkerPool } from "./worker-pool";

export interface PdfLimits {
  /** Largest accepted file in bytes (PDF_MAX_BYTES). */
  maxBytes: number;
  /** Pages read at most; later pages are skipped and the result marked truncated (PDF_MAX_PAGES). */
  maxPages: number;
  /** Characters of text kept at most; the rest is cut and the result marked truncated (PDF_MAX_TEXT_CHARS). */
  maxChars: number;
  /** Longest parse time, from when a worker picks the PDF up, in ms; twice it is the longest wait for one (PDF_PARSE_TIMEOUT_MS). */
  timeoutMs: number;
  /** Most bytes the file's compressed streams may inflate to, in total (PDF_MAX_INFLATED_BYTES). */
  maxInflatedBytes: number;
}

export interface PdfText {
  /** Extracted text, pages separated by a blank line; at most maxChars characters. */
  text: string;
  /** Pages read. */
  pages: number;
  /** Pages in the file. */
  totalPages: number;
  /** True when pages were skipped (beyond maxPages or after the character cap) or the text was cut. */
  truncated: boolean;
}

/** Acrobat accepts the header anywhere in the first 1024 bytes; so does pdf.js. */
const HEADER_WINDOW = 1024;
const PDF_MAGIC = Buffer.from("%PDF-", "latin1");

/** True when `bytes` carries the %PDF- header within the first 1024 bytes. */
export function hasPdfMagic(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, HEADER_WINDOW));
  return head.indexOf(PDF_MAGIC) >= 0;
}

let pool: PdfWorkerPool | undefined;

/**
 * Extract the text of a PDF in a worker thread.
 * Order of checks: size (too_large), %PDF- header (not_pdf), then parsing under the time limit.
 * @throws PdfError too_large | not_pdf | encrypted | unreadable | no_text | timeout | inflate_limit | busy
 * @throws Error when the worker cannot load pdf-parse (a deployment fault, not the user's file)
 */
export async function extractPdfTextWithLimits(bytes: Uint8Array, limits: PdfLimits): Promise<PdfText> {
  if (bytes.byteLength > limits.maxBytes) throw new PdfError("too_large", { maxBytes: limits.maxBytes });
  if (!hasPdfMagic(bytes)) throw new PdfError("not_pdf");
  pool ??= new PdfWorkerPool();
  let result: PdfText;
  try {
    result = await pool.run(
      { bytes, maxPages: limits.maxPages, maxChars: limits.maxChars, maxInflatedBytes: limits.maxInflatedBytes },
      limits.timeoutMs,
    );
  } catch (err) {
    throw toPdfError(err, limits);
  }
  if (!result.text.trim()) throw new PdfError("no_text");
  return result;
}

/** Stop the worker threads (tests, scripts). The next extraction starts new ones. */
export async function shutdownPdfWorkers(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.close();
}

function toPdfError(err: unknown, limits: PdfLimits): Error {
  if (!(err instanceof PdfJobFailure)) return err instanceof Error ? err : new Error("PDF extraction failed");
  switch (err.reason) {
    case "timeout":
      return new PdfError("timeout");
    case "busy":
      return new PdfError("busy");
    case "InflateLimit":
      return new PdfError("inflate_limit", { maxBytes: limits.maxInflatedBytes });
    case "PasswordException":
      return new PdfError("encrypted");
    case "LoadError":
      return new Error("PDF extraction is unavailable: the worker could not load pdf-parse.");
    default:
      // InvalidPDFException, FormatError, UnknownErrorException, a crash or out-of-memory.
      return new PdfError("unreadable");
  }
}
