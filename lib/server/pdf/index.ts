import "server-only";
import { getConfig } from "@/lib/server/config";
import type { PdfLimits, PdfText } from "@/lib/shared/pdf/extract-text";
import { PdfWorkerPool } from "./pool";

export { PdfPoolBusy } from "./pool";
export { readBase64DataUrl, type Base64Payload } from "./data-url";

/**
 * The server's PDF reading (docs/product.md §7: the spec's `file`, for a standard model): the same limits as the
 * browser's (PDF_MAX_BYTES, PDF_MAX_PAGES, PDF_MAX_TEXT_CHARS, PDF_PARSE_TIMEOUT_MS, PDF_MAX_INFLATED_BYTES) and
 * the same code (lib/shared/pdf/extract-text.ts), in a worker thread (./pool.ts).
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

/** Another PDF of the same client is being read: one at a time each, so no client fills the queue. */
export class PdfClientBusy extends Error {
  constructor() {
    super("A PDF of this client is being read.");
    this.name = "PdfClientBusy";
  }
}

let pool: PdfWorkerPool | undefined;
/** Clients (client keys or user ids) with a PDF being read or queued now. */
const inFlight = new Set<string>();

/**
 * Read a PDF sent as a base64 data URL's payload (./data-url.ts) in the PDF worker, within pdfLimits().
 * @param client who is asking ("user:<id>", "visitor:<client key>"); null: no per-client bound (an unknown
 *   address; the pool's queue still bounds it)
 * @param signal the client's going away: a queued job is dropped
 * @throws PdfClientBusy while another PDF of `client` is read; PdfPoolBusy; PdfError (see PdfWorkerPool.read)
 */
export async function readPdf(base64: string, client: string | null, signal?: AbortSignal): Promise<PdfText> {
  if (client !== null) {
    if (inFlight.has(client)) throw new PdfClientBusy();
    inFlight.add(client);
  }
  try {
    pool ??= new PdfWorkerPool();
    return await pool.read(base64, pdfLimits(), signal);
  } finally {
    if (client !== null) inFlight.delete(client);
  }
}

/** Stop the PDF workers (tests; the process exits without it, the workers are unref'd). */
export async function closePdfWorkers(): Promise<void> {
  await pool?.close();
  pool = undefined;
}
