import "server-only";
import { getConfig } from "@/lib/server/config";
import { formatWebPage, READ_PAGE_TOOL_TEXT } from "@/lib/shared/llm/read-page-prompt";
import { extractPage } from "./extract";
import { fetchPage } from "./fetch";
import { ReadPageError, type ReadPageErrorKind, type ReadPolicy } from "./guard";

export { checkTarget, isPublicAddress, ReadPageError, READ_PAGE_PORTS, type ReadPolicy } from "./guard";
export { fetchPage, MAX_REDIRECTS, READ_PAGE_USER_AGENT } from "./fetch";
export { extractPage, htmlToMarkdown } from "./extract";

/**
 * The standard path's page read (docs/issues.md #51): the read_page tool's work in lib/server/chat/tool-loop.ts.
 * The page is fetched under the guard (./guard.ts, ./fetch.ts) within READ_PAGE_MAX_BYTES and READ_PAGE_TIMEOUT_MS,
 * its main text extracted (./extract.ts) and cut at READ_PAGE_MAX_CHARS. Neither the URL nor the text is logged or
 * stored: both live in this request only.
 */

/** The outcome of one read: what the model gets, and what the chat may show of it. */
export interface PageRead {
  /** The tool message's content: the quoted page (lib/shared/llm/read-page-prompt.ts), or why it was not read. */
  content: string;
  /** "ok": read; "refused": the URL or a redirect's was not allowed (not contacted); "failed": asked for, not read. */
  status: "ok" | "refused" | "failed";
  /** The URL read (after redirects) when `status` is "ok". */
  url?: URL;
}

/** The policy of this server's reads: READ_PAGE_ALLOW_HOSTS, ports 80 and 443, the system resolver. */
function readPolicy(): ReadPolicy {
  return { allowHosts: getConfig().readPageAllowHosts };
}

/**
 * Read one page for the model.
 * @param url an http(s) URL already parsed (the caller checked that the turn may read it)
 * @param options.policy the guard's policy (default readPolicy(); tests give their own resolver)
 * @throws the turn's abort reason when `signal` aborts; never for a page that cannot be read (its `content` says why)
 */
export async function readPage(url: URL, signal?: AbortSignal, options: { policy?: ReadPolicy } = {}): Promise<PageRead> {
  const config = getConfig();
  try {
    const page = await fetchPage(url, { policy: options.policy ?? readPolicy(), maxBytes: config.READ_PAGE_MAX_BYTES, timeoutMs: config.READ_PAGE_TIMEOUT_MS, signal });
    const text = await extractPage(page, config.READ_PAGE_MAX_CHARS, signal);
    return { content: formatWebPage({ url: page.url.href, ...text }), status: "ok", url: page.url };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const kind: ReadPageErrorKind = error instanceof ReadPageError ? error.kind : "unavailable";
    return { content: READ_PAGE_TOOL_TEXT[kind], status: kind === "refused" ? "refused" : "failed" };
  }
}
