import "server-only";
import type { ReadStep } from "@/lib/shared/chat/stream-events";
import { MAX_TURN_PAGES, type ReadPageRecord } from "@/lib/shared/search/record";
import { readPage } from "@/lib/server/read-page";
import { READ_PAGE_TOOL_TEXT } from "@/lib/shared/llm/read-page-prompt";
import { readPageUrl, type ToolCall } from "@/lib/shared/llm/tools";

/**
 * The read_page step of the standard path's tool loop (./tool-loop.ts, docs/issues.md #51): which pages a turn may
 * read, and one read announced (SSE `event: step` before it, `event: read` after it) and run. URLs and page text
 * live in this request only: nothing here logs or stores them.
 */

/** Pages one answer may read at most (the record's bound, lib/shared/search/record.ts); further calls are answered without a read. */
const MAX_TURN_READS = MAX_TURN_PAGES;

/** One page read as the chat shows it (SSE `event: step` before the read, `event: read` after it; the contract in lib/shared/chat/stream-events.ts). */
export type { ReadStep };

/** What a read step yields: its announcement and its outcome (./tool-loop.ts ToolLoopEvent's members). */
type ReadEvent = { type: "step"; step: ReadStep } | { type: "read"; read: ReadStep };

/**
 * Run one read_page call (the turn's `n`th): announce it, read the page if `readable` holds its URL, and add its
 * outcome to `pages` (the turn's record, shown as "Read: host/path" and sealed with a saved answer).
 * @param readable the URLs this turn may read (lib/shared/llm/tools.ts readUrls of the user's message, and the search results so far)
 * @returns the tool message's content
 * @throws the abort reason when `signal` aborts
 */
export async function* readStep(call: ToolCall, n: number, readable: ReadonlySet<string>, signal: AbortSignal, pages: ReadPageRecord[]): AsyncGenerator<ReadEvent, string> {
  const written = readPageUrl(call.arguments);
  const url = written && URL.canParse(written) ? new URL(written) : null;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return READ_PAGE_TOOL_TEXT.bad_url;
  // The record's bound holds for an echoed record too (a continued turn's, docs/issues.md #51).
  if (n > MAX_TURN_READS || pages.length >= MAX_TURN_PAGES) return READ_PAGE_TOOL_TEXT.no_more;
  const shown = (u: URL, status: ReadStep["status"]): ReadStep => ({ step: n, via: "read", host: u.host, path: u.pathname, url: u.href, status });
  if (!readable.has(url.href)) {
    pages.push({ url: url.href, status: "refused" });
    yield { type: "step", step: shown(url, "refused") };
    return READ_PAGE_TOOL_TEXT.not_offered;
  }
  yield { type: "step", step: shown(url, "running") };
  const read = await readPage(url, signal);
  const outcome = read.url ?? url;
  pages.push({ url: outcome.href, status: read.status });
  yield { type: "read", read: shown(outcome, read.status) };
  return read.content;
}
