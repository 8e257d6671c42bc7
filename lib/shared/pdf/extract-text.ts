/**
 * PDF text extraction with pdf-parse, with hard limits on size, pages, characters and decompression: the one
 * reader of PDFs, on both sides (docs/product.md §7). The browser runs it in its
 * PDF Web Worker (lib/browser/pdf/pdf.worker.ts, pdf-parse's browser build) for the web app's `document`; the
 * server runs it in a worker thread (lib/server/pdf/pdf.worker.ts, pdf-parse's Node build) for the spec's `file`
 * sent to a standard model. Same code, same limits, same text: a PDF answers the same whichever side read it.
 *
 * Runtime-neutral: no DOM and no Node APIs. pdf-parse's class is passed in, its pdf.js already given its worker
 * code on the same thread (`globalThis.pdfjsWorker`), so no nested worker, no eval and no fetch happen.
 * Wall-clock time is bounded by the caller, which terminates the whole worker at the deadline
 * (lib/browser/pdf/index.ts, lib/server/pdf/pool.ts): a synchronous loop inside pdf.js cannot be interrupted
 * any other way.
 */
import { PdfError } from "./errors";
import { withInflateLimit } from "./inflate-guard";

export interface PdfLimits {
  /** Largest accepted file in bytes (PDF_MAX_BYTES). */
  maxBytes: number;
  /** Pages read at most; later pages are skipped and the result marked truncated (PDF_MAX_PAGES). */
  maxPages: number;
  /** Characters of text kept at most; the rest is cut and the result marked truncated (PDF_MAX_TEXT_CHARS). */
  maxChars: number;
  /** Longest extraction, wall clock, in ms; the worker is terminated then (PDF_PARSE_TIMEOUT_MS). */
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

/** The part of pdf-parse 2.4.5's `PDFParse` used here (the same in its Node and browser builds). */
export interface PdfParseClass {
  new (options: Record<string, unknown>): {
    getText(params: { partial: number[] }): Promise<{ total: number; pages: { text: string; num: number }[] }>;
    destroy(): Promise<void>;
  };
}

/** Acrobat accepts the header anywhere in the first 1024 bytes; so does pdf.js. */
export const PDF_HEADER_WINDOW = 1024;

/** True when `bytes` carries the %PDF- header within the first 1024 bytes. */
export function hasPdfMagic(bytes: Uint8Array): boolean {
  return latin1(bytes.subarray(0, PDF_HEADER_WINDOW)).includes("%PDF-");
}

/**
 * Check order: size (too_large), %PDF- header (not_pdf), then pdf-parse page by page until maxPages or
 * maxChars, with every pdf.js decoder's output counted against maxInflatedBytes as it is produced
 * (./inflate-guard.ts): a bomb fails with inflate_limit whatever pdf.js made of the error inside it.
 * Each page's text is pdf-parse's `getText` for that page (its line and cell rules), NULs removed, trimmed.
 * @throws PdfError too_large | not_pdf | inflate_limit | encrypted | unreadable | no_text
 */
export async function extractPdfText(PDFParse: PdfParseClass, bytes: Uint8Array, limits: Omit<PdfLimits, "timeoutMs">): Promise<PdfText> {
  if (bytes.byteLength > limits.maxBytes) throw new PdfError("too_large", { maxBytes: limits.maxBytes });
  if (!hasPdfMagic(bytes)) throw new PdfError("not_pdf");
  const { value, exceeded } = await withInflateLimit(limits.maxInflatedBytes, () => parse(PDFParse, bytes, limits));
  if (exceeded) throw new PdfError("inflate_limit", { maxBytes: limits.maxInflatedBytes });
  return value;
}

async function parse(PDFParse: PdfParseClass, bytes: Uint8Array, limits: Omit<PdfLimits, "timeoutMs">): Promise<PdfText> {
  const parser = new PDFParse({
    // pdf.js may detach the buffer it is given: hand it a copy.
    data: bytes.slice(),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    disableAutoFetch: true,
    disableStream: true,
    disableRange: true,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    stopAtErrors: false,
  });
  try {
    let text = "";
    let pages = 0;
    let totalPages = 0;
    let cutText = false;
    try {
      for (let n = 1; n <= Math.min(totalPages || 1, limits.maxPages); n++) {
        const result = await parser.getText({ partial: [n] });
        totalPages = result.total;
        if (n > totalPages) break;
        pages = n;
        const pageText = (result.pages[0]?.text ?? "").replace(/\u0000/g, "").trim();
        if (pageText) text += (text ? "\n\n" : "") + pageText;
        if (text.length >= limits.maxChars) {
          cutText = text.length > limits.maxChars || n < totalPages;
          text = cut(text, limits.maxChars);
          break;
        }
      }
    } catch (error) {
      throw errorFor(error);
    }
    if (!text.trim()) throw new PdfError("no_text");
    return { text, pages, totalPages, truncated: cutText || pages < totalPages };
  } finally {
    await parser.destroy().catch(() => {});
  }
}

/** pdf-parse's exceptions by name (PasswordException, InvalidPDFException, FormatError, ...). */
function errorFor(error: unknown): PdfError {
  if (error instanceof PdfError) return error;
  const name = error && typeof error === "object" && typeof (error as { name?: unknown }).name === "string" ? (error as { name: string }).name : "";
  return new PdfError(name === "PasswordException" ? "encrypted" : "unreadable");
}

/** `text` cut to at most `max` UTF-16 units, never splitting a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

function latin1(bytes: Uint8Array): string {
  return new TextDecoder("latin1").decode(bytes);
}
