// Kept apart from ./record.ts's zod schema, so a page that only shows a line does not load zod.

export const SEARCH_FAILED_LINE = "The web search failed, so this answer does not use web results.";

export const SEARCH_BLOCKED_LINE = "The web search was not run: the query looked like it held personal data.";

export const SEARCH_OVER_QUOTA_LINE = "You've used today's web searches. The toggle works again tomorrow (UTC).";

const MAX_QUERY_CHARS = 200;

export function queryFromMessage(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, MAX_QUERY_CHARS).trim();
}

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

export function pageLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return "";
  }
}
