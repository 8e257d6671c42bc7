/**
 * Web search inside the development enclave, the local stand-in for what Tinfoil's
 * confidential model router does with its router-only request fields (github.com/tinfoilsh/confidential-model-router,
 * README "Request bodies" and toolruntime/options.go):
 * - `web_search_options` (an object, possibly empty) in the decrypted body turns web search on; it is taken off
 *   the body before the model sees it;
 * - `pii_check_options` (its presence) turns on the personal-data check: a query that looks like it holds personal
 *   data (an e-mail address, a phone or card number) is not sent; the call is reported `blocked` with error code
 *   `blocked_by_safety_filter`, as the router's toolruntime/events.go does.
 * The search runs from this process against SearXNG's JSON API (the development stand-in, dev/searxng.ts, or any
 * SEARXNG_URL); Hush's server never sees the query, the results or the answer.
 *
 * The answer carries the router's Chat Completions shapes (toolruntime/events.go, toolruntime/citations/state.go):
 * with the request header `X-Tinfoil-Events: web_search`, `<tinfoil-event>{"type":"tinfoil.web_search_call",
 * "item_id","status":"in_progress"|"completed"|"failed"|"blocked","action":{"type":"search","query"},
 * "sources":[{"url","title"}],"error":{"code"}}</tinfoil-event>` markers padded with "\n" inside the content
 * stream; citations as markdown links `[n](url)` in the text with `delta.annotations`
 * `[{"type":"url_citation","url_citation":{"title","url","start_index","end_index"}}]` (rune offsets of the label).
 */
import { withWebResults, type PromptResult } from "../lib/shared/llm/search-prompt";
import { splitDocumentContext } from "../lib/shared/llm/prompt";
import { queryFromMessage } from "../lib/shared/search/text";
import type { LlmMessage } from "../lib/shared/llm/types";

/** The router's opt-in header for its progress markers, and the family Hush asks for. */
export const TINFOIL_EVENTS_HEADER = "X-Tinfoil-Events";
export const TINFOIL_EVENTS_WEB_SEARCH = "web_search";

/** The request asked for the web-search markers (`X-Tinfoil-Events`, a comma-separated list of families, any case). */
export function wantsEvents(req: { headers: Record<string, string | string[] | undefined> }): boolean {
  const raw = req.headers[TINFOIL_EVENTS_HEADER.toLowerCase()];
  return String(raw ?? "").split(",").some((f) => f.trim().toLowerCase() === TINFOIL_EVENTS_WEB_SEARCH);
}

const MAX_RESULTS = 5;
const TIMEOUT_MS = 8000;
const MAX_BYTES = 2 * 1024 * 1024;

/** Personal data the check refuses to send to a search engine (a development approximation of the router's check). */
const PERSONAL_DATA = [/[^\s@]+@[^\s@]+\.[a-z]{2,}/i, /\+?\d[\d\s().-]{7,}\d/, /\b\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}\b/];

export interface EnclaveSearchOutcome {
  /** The model input with the results (or the failure line) added. */
  messages: LlmMessage[];
  /** The markers to stream before the answer (empty without the opt-in header). */
  markers: string[];
  /** The results given to the model, numbered from 1. */
  sources: PromptResult[];
}

type Message = LlmMessage;

/**
 * Run the search a request asked for with `web_search_options`.
 * @param request the decrypted body (its router-only fields are read here)
 * @param messages the model input (text only)
 * @param searxngUrl the engine; null: every search fails (reported `failed`)
 * @param events the caller sent `X-Tinfoil-Events: web_search`
 */
export async function enclaveWebSearch(
  request: { pii_check_options?: unknown },
  messages: Message[],
  searxngUrl: string | null,
  events: boolean,
): Promise<EnclaveSearchOutcome> {
  const lastUser = messages.findLast((m) => m.role === "user")?.content ?? "";
  const query = queryFromMessage(splitDocumentContext(lastUser).question);
  const id = `ws_${crypto.randomUUID()}`;
  const marker = (status: string, extra: Record<string, unknown> = {}) =>
    `\n<tinfoil-event>${JSON.stringify({ type: "tinfoil.web_search_call", item_id: id, status, action: { type: "search", query }, ...extra })}</tinfoil-event>\n`;
  const markers = events ? [marker("in_progress")] : [];
  if (request.pii_check_options !== undefined && PERSONAL_DATA.some((p) => p.test(query))) {
    if (events) markers.push(marker("blocked", { error: { code: "blocked_by_safety_filter" } }));
    return { messages: withWebResults(messages, null), markers, sources: [] };
  }
  let results: PromptResult[];
  try {
    results = await searxng(searxngUrl, query);
  } catch {
    if (events) markers.push(marker("failed", { error: { code: "tool_error" } }));
    return { messages: withWebResults(messages, null), markers, sources: [] };
  }
  if (events) markers.push(marker("completed", { sources: results.map((r) => ({ url: r.url, title: r.title })) }));
  return { messages: withWebResults(messages, results), markers, sources: results };
}

async function searxng(baseUrl: string | null, query: string): Promise<PromptResult[]> {
  if (!baseUrl || !query) throw new Error("no engine");
  const url = new URL(`${baseUrl.replace(/\/+$/, "")}/search`);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`engine answered ${response.status}`);
  const text = await response.text();
  if (text.length > MAX_BYTES) throw new Error("answer too large");
  const data = JSON.parse(text) as { results?: { url?: unknown; title?: unknown; content?: unknown }[] };
  return (data.results ?? [])
    .filter((r): r is { url: string; title?: unknown; content?: unknown } => typeof r.url === "string" && /^https?:\/\//i.test(r.url))
    .slice(0, MAX_RESULTS)
    .map((r) => ({ url: r.url, title: typeof r.title === "string" && r.title ? r.title : r.url, content: typeof r.content === "string" ? r.content : "" }));
}

/**
 * The answer with its `[n]` markers as markdown links to source n (the form the router's models write), and the
 * url_citation annotations for them (label offsets in code points).
 */
export function citeSources(answer: string, sources: readonly PromptResult[]): { text: string; annotations: unknown[] } {
  let text = "";
  const annotations: unknown[] = [];
  let last = 0;
  for (const m of answer.matchAll(/\[(\d{1,2})\](?!\()/g)) {
    const source = sources[Number(m[1]) - 1];
    if (!source) continue;
    text += answer.slice(last, m.index);
    const start = [...text].length + 1;
    text += `[${m[1]}](${source.url})`;
    annotations.push({ type: "url_citation", url_citation: { title: source.title, url: source.url, start_index: start, end_index: start + m[1]!.length } });
    last = m.index + m[0].length;
  }
  return { text: text + answer.slice(last), annotations };
}
