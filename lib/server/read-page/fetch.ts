import "server-only";
import { createHttpFetch, readBodyCapped } from "@/lib/server/llm/http-fetch";
import { checkTarget, ReadPageError, type ReadPolicy } from "./guard";

/**
 * The guarded fetch of one public page (docs/issues.md #51): each hop checked by ./guard.ts and its connection
 * pinned to the address checked, over node:http (lib/server/llm/http-fetch.ts) with a connection per request.
 * No cookie, credential or referrer is sent; nothing here logs or stores a URL or a page.
 */

/** Redirects followed at most; the next one fails the read. */
export const MAX_REDIRECTS = 3;

/** The User-Agent of a page read: names Hush, as a well-behaved fetcher does. */
export const READ_PAGE_USER_AGENT = "Hush-ReadPage/1.0 (+reads one page a user's chat asked for)";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,application/pdf;q=0.8,*/*;q=0.1";

/** A page's answer: where it was finally read from, its type and its first bytes. */
export interface FetchedPage {
  /** The URL read, after redirects. */
  url: URL;
  /** The Content-Type header, lower-case ("" when absent). */
  contentType: string;
  bytes: Buffer;
  /** True when the body was longer than `maxBytes` (only its first `maxBytes` are here). */
  cut: boolean;
}

/**
 * Fetch `url`, following at most MAX_REDIRECTS redirects, each checked again before it is followed.
 * @param options.maxBytes READ_PAGE_MAX_BYTES: the body is cut there
 * @param options.timeoutMs READ_PAGE_TIMEOUT_MS: for the whole read, every hop and the body included
 * @param options.signal the turn's cancellation
 * @throws ReadPageError "refused" (before any connection), "redirects", "timeout", "unavailable"; the turn's
 *   abort reason when `signal` aborts
 */
export async function fetchPage(url: URL, options: { policy: ReadPolicy; maxBytes: number; timeoutMs: number; signal?: AbortSignal }): Promise<FetchedPage> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    let current = url;
    for (let hop = 0; ; hop++) {
      const target = await checkTarget(current, options.policy, signal);
      const pinned = createHttpFetch({ keepAlive: false, lookup: target.lookup });
      const response = await pinned(current, { headers: { "user-agent": READ_PAGE_USER_AGENT, accept: ACCEPT }, signal });
      if (REDIRECT_STATUSES.has(response.status)) {
        const location = response.headers.get("location");
        const next = location && URL.canParse(location, current) ? new URL(location, current) : null;
        if (!next || hop >= MAX_REDIRECTS) throw new ReadPageError("redirects");
        current = next;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new ReadPageError("unavailable");
      }
      const { bytes, cut } = await readBodyCapped(response, options.maxBytes);
      return { url: current, contentType: (response.headers.get("content-type") ?? "").toLowerCase(), bytes, cut };
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.aborted) throw new ReadPageError("timeout");
    if (error instanceof ReadPageError) throw error;
    throw new ReadPageError("unavailable");
  }
}
