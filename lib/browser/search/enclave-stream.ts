import type { ReadPageRecord, WebSearchRecord, WebSearchSource } from "@/lib/shared/search/record";
import { pageLabel } from "@/lib/shared/search/text";

// The confidential answer's web-search parts, read after decryption in the shapes of Tinfoil's confidential model
// router: `<tinfoil-event>` progress markers are taken out of the text and citation links become `[n]`.

const OPEN = "<tinfoil-event>";
const CLOSE = "</tinfoil-event>";

interface SearchCall {
  id: string;
  status: string;
  query: string | null;
  sources: WebSearchSource[];
}

const MAX_PAGES = 10;

/** A streaming filter for one answer: `push` each decrypted piece, `finish` at the end; both return text to show. */
export class EnclaveSearchStream {
  private pending = "";
  private readonly calls = new Map<string, SearchCall>();
  private readonly pages = new Map<string, { url: string; status: string }>();
  private readonly cited: WebSearchSource[] = [];

  constructor(private readonly onReading?: (page: string | null) => void) {}

  push(piece: string): string {
    this.pending += piece;
    return this.drain(false);
  }

  finish(): string {
    return this.drain(true);
  }

  annotate(annotations: unknown): void {
    if (!Array.isArray(annotations)) return;
    for (const a of annotations as { type?: unknown; url_citation?: { url?: unknown; title?: unknown } }[]) {
      const url = a?.type === "url_citation" ? a.url_citation?.url : undefined;
      if (typeof url === "string" && !this.cited.some((s) => s.url === url)) {
        this.cited.push({ url, title: typeof a.url_citation?.title === "string" ? a.url_citation.title : url });
      }
    }
  }

  sources(): WebSearchSource[] {
    const out: WebSearchSource[] = [];
    for (const call of this.calls.values()) for (const s of call.sources) if (!out.some((o) => o.url === s.url)) out.push(s);
    for (const s of this.cited) if (!out.some((o) => o.url === s.url)) out.push(s);
    return out;
  }

  record(engine: string): WebSearchRecord {
    const calls = [...this.calls.values()];
    const queries = [...new Set(calls.map((c) => c.query).filter((q): q is string => q !== null))];
    const done = calls.filter((c) => c.status !== "in_progress");
    const status = done.some((c) => c.status === "completed")
      ? "ok"
      : done.some((c) => c.status === "blocked")
        ? "blocked"
        : done.length > 0
          ? "failed"
          : this.cited.length > 0
            ? "ok"
            : "failed";
    const pages: ReadPageRecord[] = [...this.pages.values()].slice(0, MAX_PAGES).map((p) => ({
      url: p.url,
      status: p.status === "completed" ? "ok" : p.status === "blocked" ? "refused" : "failed",
    }));
    // A turn that only read pages searched nothing: that is no failed search.
    const only = calls.length === 0 && pages.length > 0;
    return { via: "enclave", engine, queries, sources: this.sources(), status: only ? "ok" : status, ...(pages.length ? { pages } : {}) };
  }

  private drain(final: boolean): string {
    let out = "";
    for (;;) {
      const at = this.pending.search(/[<[\n]/);
      if (at === -1) {
        out += this.pending;
        this.pending = "";
        return out;
      }
      out += this.pending.slice(0, at);
      this.pending = this.pending.slice(at);
      const step = this.pending[0] === "[" ? this.link(final) : this.marker(final);
      if (step === null) return out;
      out += step;
    }
  }

  private marker(final: boolean): string | null {
    if (this.pending.startsWith(`\n${OPEN}`)) this.pending = this.pending.slice(1);
    else if (this.pending[0] === "\n") return !final && `\n${OPEN}`.startsWith(this.pending) ? null : this.take(1);
    const p = this.pending;
    if (p.startsWith(OPEN)) {
      const end = p.indexOf(CLOSE);
      if (end === -1) return final ? this.take(p.length) : null;
      this.event(p.slice(OPEN.length, end));
      this.pending = p.slice(end + CLOSE.length).replace(/^\n/, "");
      return "";
    }
    if (!final && OPEN.startsWith(p)) return null;
    return this.take(1);
  }

  private link(final: boolean): string | null {
    const p = this.pending;
    const whole = /^\[([^\]\n]{1,40})\]\((https?:\/\/[^)\s]{1,2000})\)/.exec(p);
    if (whole) {
      this.pending = p.slice(whole[0].length);
      const index = this.sources().findIndex((s) => s.url === whole[2]);
      return index >= 0 ? `[${index + 1}]` : whole[0];
    }
    if (!final && /^\[[^\]\n]{0,40}(\](\([^)\s]{0,2000})?)?$/.test(p)) return null;
    return this.take(1);
  }

  private page(id: string, url: unknown, status: unknown): void {
    const previous = this.pages.get(id);
    const href = typeof url === "string" && /^https?:\/\//i.test(url) ? url.slice(0, 2000) : previous?.url;
    if (!href) return;
    const now = typeof status === "string" ? status : "in_progress";
    this.pages.set(id, { url: href, status: now });
    this.onReading?.(now === "in_progress" ? pageLabel(href) : null);
  }

  private take(n: number): string {
    const piece = this.pending.slice(0, n);
    this.pending = this.pending.slice(n);
    return piece;
  }

  private event(json: string): void {
    let data: { type?: unknown; item_id?: unknown; status?: unknown; action?: { type?: unknown; query?: unknown; url?: unknown }; sources?: unknown };
    try {
      data = JSON.parse(json) as typeof data;
    } catch {
      return;
    }
    if (data.type !== "tinfoil.web_search_call" || typeof data.item_id !== "string") return;
    if (data.action?.type === "open_page") return this.page(data.item_id, data.action.url, data.status);
    const previous = this.calls.get(data.item_id);
    const sources = Array.isArray(data.sources)
      ? (data.sources as { url?: unknown; title?: unknown }[])
          .filter((s): s is { url: string; title?: unknown } => typeof s?.url === "string")
          .map((s) => ({ url: s.url.slice(0, 2000), title: (typeof s.title === "string" && s.title ? s.title : s.url).slice(0, 500) }))
      : [];
    this.calls.set(data.item_id, {
      id: data.item_id,
      status: typeof data.status === "string" ? data.status : "in_progress",
      query: typeof data.action?.query === "string" ? data.action.query.slice(0, 500) : (previous?.query ?? null),
      sources: sources.length ? sources : (previous?.sources ?? []),
    });
  }
}
