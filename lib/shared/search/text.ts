/**
 * The texts and pure helpers of web search (docs/issues.md #40) that pages show and both sides use. Kept
 * apart from record.ts's zod schema so a page that only shows a line does not load zod (docs/issues.md #42,
 * /chat's first-load JavaScript).
 */

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

/** A read page as the disclosure names it: host (with a port other than the scheme's) and path, no query ("" when it does not parse). */
export function pageLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return "";
  }
}
