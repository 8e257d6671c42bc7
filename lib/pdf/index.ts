import "server-only";
import { getConfig } from "@/lib/config";
import { extractPdfTextWithLimits, type PdfLimits, type PdfText } from "./extract";

export { decodeDataUrl } from "./data-url";
export { PdfError, isPdfError, formatMegabytes, NOT_PDF_MESSAGE, READ_FAILURE_MESSAGE, type PdfErrorCode } from "./errors";
export { hasPdfMagic, shutdownPdfWorkers, type PdfLimits, type PdfText } from "./extract";

/** The configured limits: PDF_MAX_BYTES, PDF_MAX_PAGES, PDF_MAX_TEXT_CHARS, PDF_PARSE_TIMEOUT_MS. */
export function pdfLimits(): PdfLimits {
  const c = getConfig();
  return {
    maxBytes: c.PDF_MAX_BYTES,
    maxPages: c.PDF_MAX_PAGES,
    maxChars: c.PDF_MAX_TEXT_CHARS,
    timeoutMs: c.PDF_PARSE_TIMEOUT_MS,
  };
}

/**
 * Extract a PDF's text within limits (each omitted limit comes from config, see pdfLimits()).
 * Parsing runs in a worker thread that is terminated at the deadline (see worker-pool.ts).
 * @throws PdfError too_large | not_pdf | encrypted | unreadable | no_text | timeout
 */
export function extractPdfText(bytes: Uint8Array, limits: Partial<PdfLimits> = {}): Promise<PdfText> {
  return extractPdfTextWithLimits(bytes, { ...pdfLimits(), ...definedOnly(limits) });
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
