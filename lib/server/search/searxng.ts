import "server-only";
import { z } from "@/lib/shared/zod";
import type { PromptResult } from "@/lib/shared/llm/search-prompt";
import { createHttpFetch, readBodyCapped } from "@/lib/server/llm/http-fetch";

// A SearXNG JSON API client (https://docs.searxng.org/dev/search_api); it never logs a query or result.

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

const searchFetch = createHttpFetch();

export interface SearxngQuery {
  baseUrl: string;
  query: string;
  timeoutMs: number;
  maxResults: number;
  maxBytes: number;
  signal?: AbortSignal;
}

/** Run one query. @throws SearchError "timeout", "unavailable", "bad_response"; the caller's abort as is */
export async function searchSearxng(input: SearxngQuery): Promise<PromptResult[]> {
  const url = new URL(`${input.baseUrl}/search`);
  url.searchParams.set("q", input.query);
  url.searchParams.set("format", "json");
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout;
  let body: string;
  try {
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

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const announced = Number(response.headers.get("content-length") ?? "0");
  const { bytes, cut } = await readBodyCapped(response, announced > maxBytes ? 0 : maxBytes);
  if (cut || announced > maxBytes) throw new SearchError("bad_response");
  return bytes.toString("utf8");
}
