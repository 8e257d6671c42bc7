import { z } from "@/lib/shared/zod";

/**
 * What a turn with "Search the web" on tells the user, and what a saved chat keeps sealed with the answer
 * the engine, every query exactly as sent, the sources listed under the answer, and
 * how the search went. Built by the server for standard models (lib/server/search/run.ts) and by the browser
 * from the enclave's `tinfoil.web_search_call` events for confidential ones (lib/browser/search/tinfoil-events.ts).
 */
export const webSearchSourceSchema = z.object({
  title: z.string().max(500),
  url: z.string().max(2000),
});
export type WebSearchSource = z.infer<typeof webSearchSourceSchema>;

export const webSearchRecordSchema = z
  .object({
    /** "searxng": the operator's SearXNG (standard models); "enclave": inside the verified enclave (confidential). */
    via: z.enum(["searxng", "enclave"]),
    /** Who ran the queries, as shown: the SearXNG host, or the enclave's host. */
    engine: z.string().max(300),
    /** Every query exactly as sent to the engine, in order. */
    queries: z.array(z.string().max(500)).max(10),
    /** The results given to the model, numbered from 1 in this order (the answer's [n] markers). */
    sources: z.array(webSearchSourceSchema).max(60),
    /**
     * "ok"; "failed": the engine did not answer (the model answered without results); "blocked": the enclave's
     * personal-data check kept the query from the engine; "over_quota": today's searches are used up.
     */
    status: z.enum(["ok", "failed", "blocked", "over_quota"]),
  })
  .meta({ id: "WebSearchRecord" });
export type WebSearchRecord = z.infer<typeof webSearchRecordSchema>;

/** The one line under an answer whose search failed (never silently: docs/issues.md #40). */
export const SEARCH_FAILED_LINE = "The web search failed, so this answer does not use web results.";

/** The line under an answer whose query the enclave's personal-data check held back (CONFIDENTIAL_SEARCH_PII_CHECK). */
export const SEARCH_BLOCKED_LINE = "The web search was not run: the query looked like it held personal data.";

/** What the toggle says once today's searches are used up. */
export const SEARCH_OVER_QUOTA_LINE = "You've used today's web searches. The toggle works again tomorrow (UTC).";

/** Longest query sent to an engine, in characters. */
export const MAX_QUERY_CHARS = 200;

/**
 * The query for a turn: the user's last message with whitespace collapsed, cut at MAX_QUERY_CHARS (the
 * issue's fallback "the user's message when the model does not supply them"; Hush's standard path asks no
 * model for queries, so this is the one query). Empty input gives "".
 */
export function queryFromMessage(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, MAX_QUERY_CHARS).trim();
}

/** The host of a source's URL, shown beside its title ("" for a URL that does not parse). */
export function sourceDomain(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
}

/** Only http(s) URLs become links: a `javascript:` or `data:` URL from an engine is shown as text. */
export function isLinkable(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}
