import "server-only";
import { getConfig } from "@/lib/config";
import { PdfError } from "./errors";
import { extractPdfTextWithLimits, type PdfLimits, type PdfText } from "./extract";

export { decodeDataUrl } from "./data-url";
export { PdfError, isPdfError, formatMegabytes, NOT_PDF_MESSAGE, READ_FAILURE_MESSAGE, type PdfErrorCode } from "./errors";
export { hasPdfMagic, shutdownPdfWorkers, type PdfLimits, type PdfText } from "./extract";

/**
 * The configured limits: PDF_MAX_BYTES, PDF_MAX_PAGES, PDF_MAX_TEXT_CHARS, PDF_PARSE_TIMEOUT_MS,
 * PDF_MAX_INFLATED_BYTES.
 */
export function pdfLimits(): PdfLimits {
  const c = getConfig();
  return {
    maxBytes: c.PDF_MAX_BYTES,
    maxPages: c.PDF_MAX_PAGES,
    maxChars: c.PDF_MAX_TEXT_CHARS,
    timeoutMs: c.PDF_PARSE_TIMEOUT_MS,
    maxInflatedBytes: c.PDF_MAX_INFLATED_BYTES,
  };
}

/** Clients (user ids or addresses) with a PDF being read now: one at a time each (docs/issues.md #10). */
const inFlight = new Set<string>();

/**
 * Extract a PDF's text within limits (each omitted limit comes from config, see pdfLimits()).
 * Parsing runs in a worker thread that is terminated at the deadline (see worker-pool.ts).
 * @param options.client who is asking ("user:<id>" or a client address): while one of its PDFs is being
 *   read, another fails at once with busy_client. Omitted: no per-client limit.
 * @throws PdfError too_large | not_pdf | encrypted | unreadable | no_text | timeout | inflate_limit |
 *   busy | busy_client
 */
export async function extractPdfText(
  bytes: Uint8Array,
  limits: Partial<PdfLimits> = {},
  options: { client?: string | null } = {},
): Promise<PdfText> {
  const client = options.client ?? null;
  if (client !== null) {
    if (inFlight.has(client)) throw new PdfError("busy_client");
    inFlight.add(client);
  }
  try {
    return await extractPdfTextWithLimits(bytes, { ...pdfLimits(), ...definedOnly(limits) });
  } finally {
    if (client !== null) inFlight.delete(client);
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
