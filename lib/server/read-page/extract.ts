import "server-only";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { readPdf } from "@/lib/server/pdf";
import { hasPdfMagic } from "@/lib/shared/pdf/extract-text";
import { ReadPageError } from "./guard";
import type { FetchedPage } from "./fetch";

/**
 * A fetched page's main text (docs/issues.md #51): HTML through @mozilla/readability over a linkedom DOM, turned
 * into Markdown by turndown; plain text as it is; a PDF through the server's PDF worker (lib/server/pdf). Nothing
 * is logged: the text goes to the model only.
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

// One converter for every page: turndown keeps no per-page state. Scripts and the like carry no text.
const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
turndown.remove(["script", "style", "noscript", "iframe", "template", "form"]);

/**
 * The main text of a fetched page, cut at `maxChars` characters.
 * @param signal the turn's cancellation (a queued PDF is dropped)
 * @throws ReadPageError "unsupported" for another type or an unreadable or cut PDF, "empty" when no text is found
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
    ({ title, text } = htmlToMarkdown(decode(page.bytes, page.contentType)));
  } else if (TEXT_TYPES.has(mime)) {
    text = decode(page.bytes, page.contentType);
  } else {
    throw new ReadPageError("unsupported");
  }
  text = text.replace(/\n{3,}/g, "\n\n").trim();
  if (!text) throw new ReadPageError("empty");
  return { title, text: text.slice(0, maxChars), truncated: page.cut || pdfCut || text.length > maxChars };
}

/** The bytes as text in the Content-Type's charset (UTF-8 when none is named or it is unknown). */
function decode(bytes: Buffer, contentType: string): string {
  const charset = /;\s*charset="?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

/** An HTML page's title and main text as Markdown: Readability's article, else the whole body. */
export function htmlToMarkdown(html: string): { title: string; text: string } {
  const { document } = parseHTML(html);
  const pageTitle = document.title ?? "";
  const article = new Readability(document as unknown as Document).parse();
  if (article?.content) {
    const { document: fragment } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
    return { title: (article.title ?? pageTitle).trim(), text: turndown.turndown(fragment.body as unknown as HTMLElement) };
  }
  // Readability found no article (a short page, a list): the body as it is, without its scripts.
  const { document: whole } = parseHTML(html);
  return { title: pageTitle.trim(), text: whole.body ? turndown.turndown(whole.body as unknown as HTMLElement) : "" };
}
