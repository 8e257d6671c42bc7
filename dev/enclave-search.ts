/**
 * Web search inside the development enclave, as Tinfoil's confidential model router does it
 * (github.com/tinfoilsh/confidential-model-router, toolruntime/), with its markers and citations.
 */
import type { PromptResult } from "../lib/shared/llm/search-prompt";
import { heldBackKind } from "../lib/shared/search/personal-data";

export const TINFOIL_EVENTS_HEADER = "X-Tinfoil-Events";
export const TINFOIL_EVENTS_WEB_SEARCH = "web_search";

export function wantsEvents(req: { headers: Record<string, string | string[] | undefined> }): boolean {
  const raw = req.headers[TINFOIL_EVENTS_HEADER.toLowerCase()];
  return String(raw ?? "").split(",").some((f) => f.trim().toLowerCase() === TINFOIL_EVENTS_WEB_SEARCH);
}

const MAX_RESULTS = 5;
const TIMEOUT_MS = 8000;
const MAX_BYTES = 2 * 1024 * 1024;


export type SearchStatus = "completed" | "failed" | "blocked";

export interface QueryOutcome {
  status: SearchStatus;
  results: PromptResult[];
}

/** Never throws; an engine failure, timeout or oversized answer is `failed`. */
export async function runQuery(query: string, searxngUrl: string | null, piiCheck: { userMessage: string } | null): Promise<QueryOutcome> {
  if (piiCheck && heldBackKind(query, piiCheck.userMessage) !== null) return { status: "blocked", results: [] };
  try {
    return { status: "completed", results: await searxng(searxngUrl, query) };
  } catch {
    return { status: "failed", results: [] };
  }
}

/** Padded with "\n" as the router streams it (toolruntime/events.go). */
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

/** "blocked" (not the router's) is a page this enclave would not read. */
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

/** Each `[n]` becomes a markdown link with a url_citation annotation; a possible partial marker is held back. */
export class CitationStream {
  private pending = "";
  private emitted = 0;
  constructor(private readonly sources: readonly PromptResult[]) {}

  push(piece: string): { text: string; annotations: unknown[] } {
    this.pending += piece;
    const hold = /\[\d{0,2}\]?$/.exec(this.pending);
    const ready = hold ? this.pending.slice(0, hold.index) : this.pending;
    this.pending = this.pending.slice(ready.length);
    return this.cite(ready);
  }

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

export function citeSources(answer: string, sources: readonly PromptResult[]): { text: string; annotations: unknown[] } {
  const stream = new CitationStream(sources);
  const head = stream.push(answer);
  const tail = stream.finish();
  return { text: head.text + tail.text, annotations: [...head.annotations, ...tail.annotations] };
}
