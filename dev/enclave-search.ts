/**
 * Web search inside the development enclave, the local stand-in for what Tinfoil's
 * confidential model router does with its router-only request fields (github.com/tinfoilsh/confidential-model-router,
 * README "Request bodies" and toolruntime/options.go):
 * - `web_search_options` (an object, possibly empty) in the decrypted body turns web search on; it is taken off
 *   the body before the model sees it;
 * - `pii_check_options` (its presence) turns on the personal-data check (lib/shared/search/personal-data.ts, the one
 *   Hush's own search tool uses): a query holding an e-mail address, phone, card number or IBAN that the user's latest
 *   message does not hold is not sent; the call is reported `blocked` with error code `blocked_by_safety_filter`,
 *   as the router's toolruntime/events.go does.
 * The queries are the model's (./enclave-tools.ts runs the tool loop); each runs from this process against SearXNG's
 * JSON API (the development stand-in, dev/searxng.ts, or any SEARXNG_URL); Hush's server never sees the query, the
 * results or the answer.
 *
 * The answer carries the router's Chat Completions shapes (toolruntime/events.go, toolruntime/citations/state.go):
 * with the request header `X-Tinfoil-Events: web_search`, `<tinfoil-event>{"type":"tinfoil.web_search_call",
 * "item_id","status":"in_progress"|"completed"|"failed"|"blocked","action":{"type":"search","query"},
 * "sources":[{"url","title"}],"error":{"code"}}</tinfoil-event>` markers padded with "\n" inside the content
 * stream; citations as markdown links `[n](url)` in the text with `delta.annotations`
 * `[{"type":"url_citation","url_citation":{"title","url","start_index","end_index"}}]` (rune offsets of the label).
 */
import type { PromptResult } from "../lib/shared/llm/search-prompt";
import { heldBackKind } from "../lib/shared/search/personal-data";

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


/** How one query went, in the router's marker statuses. */
export type SearchStatus = "completed" | "failed" | "blocked";

/** What the enclave's search tool settles for one query. */
export interface QueryOutcome {
  status: SearchStatus;
  /** The engine's results (empty unless completed). */
  results: PromptResult[];
}

/**
 * Run one query, model-written or not, from this process.
 * @param searxngUrl the engine; null: the query fails
 * @param piiCheck the text of the user's latest message when the request carried `pii_check_options`: a query with
 *   personal data that message does not hold is not sent (`blocked`); null: no check
 * @returns never throws; an engine failure, timeout or oversized answer is `failed`
 */
export async function runQuery(query: string, searxngUrl: string | null, piiCheck: { userMessage: string } | null): Promise<QueryOutcome> {
  if (piiCheck && heldBackKind(query, piiCheck.userMessage) !== null) return { status: "blocked", results: [] };
  try {
    return { status: "completed", results: await searxng(searxngUrl, query) };
  } catch {
    return { status: "failed", results: [] };
  }
}

/**
 * One `tinfoil.web_search_call` marker, padded with "\n" as the router streams it (toolruntime/events.go); the query
 * exactly as sent. A failed call carries error code `tool_error`, a blocked one `blocked_by_safety_filter`.
 */
export function searchMarker(itemId: string, status: "in_progress" | SearchStatus, query: string, results: readonly PromptResult[] = []): string {
  const extra =
    status === "completed"
      ? { sources: results.map((r) => ({ url: r.url, title: r.title })) }
      : status === "failed"
        ? { error: { code: "tool_error" } }
        : status === "blocked"
          ? { error: { code: "blocked_by_safety_filter" } }
          : {};
  return `\n<tinfoil-event>${JSON.stringify({ type: "tinfoil.web_search_call", item_id: itemId, status, action: { type: "search", query }, ...extra })}</tinfoil-event>\n`;
}

/**
 * One `open_page` marker of the router's fetch tool (toolruntime/tool_progress.go executeFetchWithProgress: one
 * per URL, `"action":{"type":"open_page","url"}`), padded with "\n". "blocked" is a page this enclave would not read
 * (not allowed, or not this turn's to read): the router's fetch has no such status, Hush's client shows it as not read.
 */
export function pageMarker(itemId: string, status: "in_progress" | SearchStatus, url: string): string {
  const extra = status === "failed" ? { error: { code: "tool_error" } } : status === "blocked" ? { error: { code: "blocked_by_safety_filter" } } : {};
  return `\n<tinfoil-event>${JSON.stringify({ type: "tinfoil.web_search_call", item_id: itemId, status, action: { type: "open_page", url }, ...extra })}</tinfoil-event>\n`;
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
 * Citations written as the answer streams: each `[n]` marker becomes a markdown link to source n (the form the
 * router's models write) with a url_citation annotation (label offsets in code points of the answer text). A
 * trailing piece that could still become a marker is held back until the next piece or `finish`.
 * `sources` is read live, so results added by later search steps are citable.
 */
export class CitationStream {
  private pending = "";
  private emitted = 0;
  constructor(private readonly sources: readonly PromptResult[]) {}

  /** Add answer text; returns the text to send now and its annotations. */
  push(piece: string): { text: string; annotations: unknown[] } {
    this.pending += piece;
    const hold = /\[\d{0,2}\]?$/.exec(this.pending);
    const ready = hold ? this.pending.slice(0, hold.index) : this.pending;
    this.pending = this.pending.slice(ready.length);
    return this.cite(ready);
  }

  /** The held-back rest. */
  finish(): { text: string; annotations: unknown[] } {
    const rest = this.pending;
    this.pending = "";
    return this.cite(rest);
  }

  private cite(answer: string): { text: string; annotations: unknown[] } {
    let text = "";
    const annotations: unknown[] = [];
    let last = 0;
    for (const m of answer.matchAll(/\[(\d{1,2})\](?!\()/g)) {
      const source = this.sources[Number(m[1]) - 1];
      if (!source) continue;
      text += answer.slice(last, m.index);
      const start = this.emitted + [...text].length + 1;
      text += `[${m[1]}](${source.url})`;
      annotations.push({ type: "url_citation", url_citation: { title: source.title, url: source.url, start_index: start, end_index: start + m[1]!.length } });
      last = m.index + m[0].length;
    }
    text += answer.slice(last);
    this.emitted += [...text].length;
    return { text, annotations };
  }
}

/** A whole answer's citations (CitationStream on one piece). */
export function citeSources(answer: string, sources: readonly PromptResult[]): { text: string; annotations: unknown[] } {
  const stream = new CitationStream(sources);
  const head = stream.push(answer);
  const tail = stream.finish();
  return { text: head.text + tail.text, annotations: [...head.annotations, ...tail.annotations] };
}
