import "server-only";
import { getConfig } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";
import { withWebResults, type PromptResult } from "@/lib/shared/llm/search-prompt";
import type { LlmMessage } from "@/lib/shared/llm/types";
import type { WebSearchRecord, WebSearchSource } from "@/lib/shared/search/record";
import { queryFromMessage } from "@/lib/shared/search/text";
import { searchSearxng } from "./searxng";

/**
 * The standard path's web search: the server queries its SearXNG (SEARXNG_URL) for a
 * turn with `web_search: true` and gives the model the results as quoted material (lib/shared/llm/search-prompt.ts).
 * Queries and results live in this request only: nothing here logs or stores them.
 */

/**
 * Refuse `web_search: true` when this server has no SearXNG: the toggle is not offered then, so only a
 * hand-made request gets here. Called before the quota is counted.
 * @throws AppError 400 "bad_request:web_search"
 */
export function assertSearchAvailable(requested: boolean | undefined): boolean {
  const refusal = searchRefusal(requested);
  if (refusal) throw refusal;
  return Boolean(requested);
}

/** The refusal `assertSearchAvailable` throws, or null (lib/server/chat/admission.ts lists it with the others). */
export function searchRefusal(requested: boolean | undefined): AppError | null {
  return requested && !getConfig().search ? new AppError("bad_request:web_search", "Web search is not available on this server for this model.") : null;
}

/**
 * Run a turn's search and add its results to the model input.
 * @param messages the turn's model input (system prompt first, the user's message last)
 * @param question the user's last message: the query (lib/shared/search/text.ts queryFromMessage)
 * @param counted false when today's searches are used up: nothing is queried (status "over_quota")
 * @returns the model input to send and the record shown (and sealed) with the answer
 * @throws the turn's abort reason when `signal` aborts; never for an engine failure (status "failed")
 */
export async function searchForTurn(input: {
  messages: LlmMessage[];
  question: string;
  counted: boolean;
  signal?: AbortSignal;
}): Promise<{ messages: LlmMessage[]; record: WebSearchRecord }> {
  const settings = getConfig().search!;
  const query = queryFromMessage(input.question);
  const base = { via: "searxng" as const, engine: settings.host };
  if (!input.counted) return { messages: input.messages, record: { ...base, queries: [], sources: [], status: "over_quota" } };
  const queries = query ? [query] : [];
  const results = await runQueries(queries, input.signal);
  if (!results) return { messages: withWebResults(input.messages, null), record: { ...base, queries, sources: [], status: "failed" } };
  return { messages: withWebResults(input.messages, results), record: { ...base, queries, sources: results.map(toSource), status: "ok" } };
}

/**
 * Run queries against this server's SearXNG (SEARXNG_URL), side by side, and merge their results in query
 * order, each URL once (also across `seen`, the turn's URLs so far, which it extends).
 * @returns the new results, or null when no query was answered (the step failed; also for no queries)
 * @throws the turn's abort reason when `signal` aborts
 */
export async function runQueries(queries: readonly string[], signal?: AbortSignal, seen = new Set<string>()): Promise<PromptResult[] | null> {
  const config = getConfig();
  const settings = config.search!;
  const settled = await Promise.allSettled(
    queries.map((q) =>
      searchSearxng({
        baseUrl: settings.baseUrl,
        query: q,
        timeoutMs: config.SEARCH_TIMEOUT_MS,
        maxResults: config.SEARCH_MAX_RESULTS,
        maxBytes: config.SEARCH_MAX_RESPONSE_BYTES,
        signal,
      }),
    ),
  );
  if (signal?.aborted) throw signal.reason;
  const answered = settled.filter((s): s is PromiseFulfilledResult<PromptResult[]> => s.status === "fulfilled");
  if (answered.length === 0) return null;
  return answered.flatMap((a) => a.value).filter((r) => !seen.has(r.url) && seen.add(r.url));
}

/** A result as the record lists it (lengths bounded as webSearchSourceSchema's). */
export function toSource(r: PromptResult): WebSearchSource {
  return { title: r.title.slice(0, 500), url: r.url.slice(0, 2000) };
}
