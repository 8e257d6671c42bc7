import "server-only";
import { getConfig } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";
import { withWebResults, type PromptResult } from "@/lib/shared/llm/search-prompt";
import type { LlmMessage } from "@/lib/shared/llm/types";
import type { WebSearchRecord, WebSearchSource } from "@/lib/shared/search/record";
import { queryFromMessage } from "@/lib/shared/search/text";
import { searchSearxng } from "./searxng";

// The standard path's web search (SEARXNG_URL); queries and results are never logged.

export function searchRefusal(requested: boolean | undefined): AppError | null {
  return requested && !getConfig().search ? new AppError("bad_request:web_search", "Web search is not available on this server for this model.") : null;
}

/** Run a turn's search into the model input. @throws the abort reason, never for an engine failure */
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

/** Run queries side by side, each URL once (across `seen`); null when none was answered. */
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

export function toSource(r: PromptResult): WebSearchSource {
  return { title: r.title.slice(0, 500), url: r.url.slice(0, 2000) };
}
