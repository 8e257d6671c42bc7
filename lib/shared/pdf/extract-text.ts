// PDF text extraction with pdf-parse and hard limits: the one reader of PDFs, in the browser's PDF worker and the
// server's worker thread alike. Runtime-neutral; the caller bounds wall-clock time by terminating the worker.
import type { LoadParameters } from "pdf-parse";
import { PdfError } from "./errors";
import { withInflateLimit } from "./inflate-guard";

export interface PdfLimits {
  maxBytes: number;
  maxPages: number;
  maxChars: number;
  timeoutMs: number;
  maxInflatedBytes: number;
}

export interface PdfText {
  text: string;
  pages: number;
  totalPages: number;
  truncated: boolean;
}

export interface PdfParseClass {
  new (options: LoadParameters): {
    getText(params: { partial: number[] }): Promise<{ total: number; pages: { text: string; num: number }[] }>;
    destroy(): Promise<void>;
  };
}

/** Acrobat accepts the header anywhere in the first 1024 bytes; so does pdf.js. */
const PDF_HEADER_WINDOW = 1024;

export function hasPdfMagic(bytes: Uint8Array): boolean {
  return latin1(bytes.subarray(0, PDF_HEADER_WINDOW)).includes("%PDF-");
}

/**
 * Check size, the %PDF- header, then read page by page within maxPages and maxChars, decoder output counted
 * against maxInflatedBytes (./inflate-guard.ts).
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

function errorFor(error: unknown): PdfError {
  if (error instanceof PdfError) return error;
  const name = error && typeof error === "object" && typeof (error as { name?: unknown }).name === "string" ? (error as { name: string }).name : "";
  return new PdfError(name === "PasswordException" ? "encrypted" : "unreadable");
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

function latin1(bytes: Uint8Array): string {
  return new TextDecoder("latin1").decode(bytes);
}
