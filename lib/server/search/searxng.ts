import "server-only";
import { z } from "@/lib/shared/zod";
import type { PromptResult } from "@/lib/shared/llm/search-prompt";
import { createHttpFetch, readBodyCapped } from "@/lib/server/llm/http-fetch";

/**
 * A SearXNG client for its JSON API (https://docs.searxng.org/dev/search_api: `GET /search?q=…&format=json`;
 * the instance must list `json` under `search.formats` in its settings.yml, else it answers 403). Of the answer
 * only `results[].title`, `.url` and `.content` are read. No query, result or answer is logged or stored here.
 */

/** Why a query failed: no answer in time, the engine unreachable or refusing, or an answer Hush cannot use. */
export class SearchError extends Error {
  constructor(readonly kind: "timeout" | "unavailable" | "bad_response") {
    super(`web search ${kind}`);
    this.name = "SearchError";
  }
}

const answerSchema = z.looseObject({
  results: z
    .array(z.looseObject({ url: z.string().optional(), title: z.string().optional(), content: z.string().nullish() }))
    .default([]),
});

/** node:http keep-alive, not Next's patched global fetch (docs/performance.md "Custom server"). */
const searchFetch = createHttpFetch();

export interface SearxngQuery {
  /** SEARXNG_URL (no trailing slash). */
  baseUrl: string;
  query: string;
  /** SEARCH_TIMEOUT_MS: for the whole exchange, answer body included. */
  timeoutMs: number;
  /** SEARCH_MAX_RESULTS: results kept, in the engine's order. */
  maxResults: number;
  /** SEARCH_MAX_RESPONSE_BYTES: a longer answer is refused rather than read whole. */
  maxBytes: number;
  /** The turn's cancellation (client gone, shutdown). */
  signal?: AbortSignal;
}

/**
 * Run one query. Results without an http(s) URL are dropped.
 * @returns at most `maxResults` results (possibly none)
 * @throws SearchError "timeout" past timeoutMs, "unavailable" for a network error or non-2xx status,
 *   "bad_response" for an answer that is too large, not JSON or not SearXNG's shape; the caller's abort as is
 */
export async function searchSearxng(input: SearxngQuery): Promise<PromptResult[]> {
  const url = new URL(`${input.baseUrl}/search`);
  url.searchParams.set("q", input.query);
  url.searchParams.set("format", "json");
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout;
  let body: string;
  try {
    // Redirects are not followed: a 3xx is not ok, so "unavailable", as `redirect: "error"` made it.
    const response = await searchFetch(url, { headers: { Accept: "application/json" }, signal });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new SearchError("unavailable");
    }
    body = await readCapped(response, input.maxBytes);
  } catch (error) {
    if (input.signal?.aborted) throw input.signal.reason;
    if (timeout.aborted) throw new SearchError("timeout");
    if (error instanceof SearchError) throw error;
    throw new SearchError("unavailable");
  }
  let parsed: z.infer<typeof answerSchema>;
  try {
    parsed = answerSchema.parse(JSON.parse(body));
  } catch {
    throw new SearchError("bad_response");
  }
  const results: PromptResult[] = [];
  for (const r of parsed.results) {
    if (results.length >= input.maxResults) break;
    if (!r.url || !/^https?:\/\//i.test(r.url)) continue;
    results.push({ title: (r.title ?? "").trim() || r.url, url: r.url, content: (r.content ?? "").trim() });
  }
  return results;
}

/** The body as text, refusing one longer than `maxBytes` (counted as it arrives, whatever Content-Length says). */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const announced = Number(response.headers.get("content-length") ?? "0");
  const { bytes, cut } = await readBodyCapped(response, announced > maxBytes ? 0 : maxBytes);
  if (cut || announced > maxBytes) throw new SearchError("bad_response");
  return bytes.toString("utf8");
}
