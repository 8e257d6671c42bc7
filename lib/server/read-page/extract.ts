import "server-only";
import { readPdf } from "@/lib/server/pdf";
import { hasPdfMagic } from "@/lib/shared/pdf/extract-text";
import { ReadPageError } from "./guard";
import { extractHtml } from "./extract-pool";
import type { FetchedPage } from "./fetch";
import { decodePage } from "./decode";

/**
 * A fetched page's main text (docs/issues.md #51): HTML through @mozilla/readability over a linkedom DOM, turned
 * into Markdown by turndown (./markdown.ts) in the extraction worker (./extract-pool.ts); plain text as it is; a
 * PDF through the server's PDF worker (lib/server/pdf). Nothing is logged: the text goes to the model only.
 */

/** A page's text as the model gets it. */
export interface PageText {
  title: string;
  /** Markdown (HTML), the text (plain text, PDF); at most `maxChars` characters. */
  text: string;
  /** True when the body or the text was cut. */
  truncated: boolean;
}

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const TEXT_TYPES = new Set(["text/plain", "text/markdown"]);

/**
 * The main text of a fetched page, cut at `maxChars` characters.
 * @param signal the turn's cancellation (a queued PDF or page is dropped)
 * @throws ReadPageError "unsupported" for another type, an unreadable or cut PDF or a page the extraction worker
 *   failed on, "timeout" for a page not extracted within READ_PAGE_EXTRACT_TIMEOUT_MS, "empty" when no text is found
 */
export async function extractPage(page: FetchedPage, maxChars: number, signal?: AbortSignal): Promise<PageText> {
  const mime = page.contentType.split(";")[0]!.trim();
  let title = "";
  let text: string;
  let pdfCut = false;
  if (mime === "application/pdf" || (mime === "application/octet-stream" && hasPdfMagic(new Uint8Array(page.bytes.subarray(0, 1024))))) {
    // A PDF cut at READ_PAGE_MAX_BYTES has lost its cross-reference table: unreadable.
    if (page.cut) throw new ReadPageError("unsupported");
    try {
      const pdf = await readPdf(page.bytes.toString("base64"), null, signal);
      text = pdf.text;
      pdfCut = pdf.truncated;
    } catch {
      if (signal?.aborted) throw signal.reason;
      throw new ReadPageError("unsupported");
    }
  } else if (HTML_TYPES.has(mime)) {
    ({ title, text } = await extractHtml(page.bytes, page.contentType, maxChars, signal));
  } else if (TEXT_TYPES.has(mime)) {
    text = decodePage(page.bytes, page.contentType);
  } else {
    throw new ReadPageError("unsupported");
  }
  text = text.replace(/\n{3,}/g, "\n\n").trim();
  if (!text) throw new ReadPageError("empty");
  return { title, text: text.slice(0, maxChars), truncated: page.cut || pdfCut || text.length > maxChars };
}
