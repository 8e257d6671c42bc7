import MiniSearch, { type Options } from "minisearch";

// Search over the user's saved chats, in the browser over decrypted text (the server cannot search what it cannot
// read): one MiniSearch document per chat, prefix matching, small typos, all words must match, titles rank higher.

export interface SearchableChat {
  chat_id: string;
  title: string | null;
  messages: string[];
  last_updated: string;
}

export interface Segment {
  text: string;
  match: boolean;
}

export interface ChatSearchHit {
  chat_id: string;
  title: Segment[];
  snippet: Segment[] | null;
  last_updated: string;
}

const SEPARATOR = /[\n\r\p{Z}\p{P}]+/u;
const SPLIT_KEEPING = /([\n\r\p{Z}\p{P}]+)/u;
// ASCII_SEPARATOR is SEPARATOR's ASCII characters (checked by tests/unit/chat-search.test.ts): a Unicode-property class costs more per character.
const ASCII_SEPARATOR = /[\n\r !"#%&'()*,\-./:;?@[\\\]_{}]+/;
const NON_ASCII = /[^\x00-\x7f]/;

export function tokenize(text: string): string[] {
  return NON_ASCII.test(text) ? text.split(SEPARATOR) : text.split(ASCII_SEPARATOR);
}

interface MiniSearchInternals {
  add(document: unknown): void;
  addTerm(fieldId: number, documentId: number, term: string): void;
  _index: { fetch(term: string, initial: () => Map<number, Map<number, number>>): Map<number, Map<number, number>> };
}

/**
 * Make `mini` look up each distinct term of a document once per add() instead of once per occurrence, using two
 * internals (addTerm, _index.fetch); left as it is when they are missing. tests/unit/chat-search.test.ts checks
 * that the serialized index equals MiniSearch's own.
 */
export function lookUpTermsOncePerDocument<T>(mini: MiniSearch<T>): MiniSearch<T> {
  // addTerm and _index are private in MiniSearch's types.
  // eslint-disable-next-line no-restricted-syntax
  const inner = mini as unknown as MiniSearchInternals;
  if (typeof inner.addTerm !== "function" || typeof inner._index?.fetch !== "function") return mini;
  const postings = new Map<string, Map<number, Map<number, number>>>();
  const add = inner.add.bind(inner);
  inner.add = (document) => {
    postings.clear();
    try {
      add(document);
    } finally {
      postings.clear();
    }
  };
  inner.addTerm = (fieldId, documentId, term) => {
    let data = postings.get(term);
    if (!data) {
      data = inner._index.fetch(term, () => new Map());
      postings.set(term, data);
    }
    const field = data.get(fieldId);
    if (field) field.set(documentId, (field.get(documentId) ?? 0) + 1);
    else data.set(fieldId, new Map([[documentId, 1]]));
  };
  return mini;
}

const SNIPPET_BEFORE = 40;
const SNIPPET_LENGTH = 160;

export function highlight(text: string, terms: ReadonlySet<string>): Segment[] {
  const out: Segment[] = [];
  for (const [i, piece] of text.split(SPLIT_KEEPING).entries()) {
    if (piece === "") continue;
    const match = i % 2 === 0 && terms.has(piece.toLowerCase());
    const last = out.at(-1);
    if (last && last.match === match && !match) last.text += piece;
    else out.push({ text: piece, match });
  }
  return out;
}

/** A one-line excerpt around the first matched word of the messages, "…" where cut; null for a title-only match. */
export function snippetOf(messages: readonly string[], terms: ReadonlySet<string>): Segment[] | null {
  for (const raw of messages) {
    const text = raw.replace(/\s+/g, " ").trim();
    let at = -1;
    let pos = 0;
    for (const [i, piece] of text.split(SPLIT_KEEPING).entries()) {
      if (i % 2 === 0 && piece !== "" && terms.has(piece.toLowerCase())) {
        at = pos;
        break;
      }
      pos += piece.length;
    }
    if (at < 0) continue;
    let start = Math.max(0, at - SNIPPET_BEFORE);
    if (start > 0) {
      const space = text.indexOf(" ", start);
      start = space >= 0 && space < at ? space + 1 : start;
    }
    let end = Math.min(text.length, start + SNIPPET_LENGTH);
    if (end < text.length) {
      const space = text.lastIndexOf(" ", end);
      end = space > at ? space : end;
    }
    const segments = highlight(text.slice(start, end), terms);
    if (start > 0) segments.unshift({ text: "…", match: false });
    if (end < text.length) segments.push({ text: "…", match: false });
    return segments;
  }
  return null;
}

export const SEARCH_OPTIONS = {
  fields: ["title", "body"],
  storeFields: [],
  tokenize,
  searchOptions: {
    prefix: true,
    fuzzy: (term: string) => (term.length >= 5 ? 0.2 : false),
    combineWith: "AND",
    boost: { title: 2 },
  },
} satisfies Options;

/** The in-memory index of the user's decrypted chats (one per vault session, never stored). */
export class ChatSearchIndex {
  private readonly mini = lookUpTermsOncePerDocument(new MiniSearch<{ id: string; title: string; body: string }>(SEARCH_OPTIONS));
  private readonly chats = new Map<string, SearchableChat>();

  get size(): number {
    return this.chats.size;
  }

  get(chatId: string): SearchableChat | undefined {
    return this.chats.get(chatId);
  }

  ids(): string[] {
    return [...this.chats.keys()];
  }

  upsert(chat: SearchableChat): void {
    const doc = { id: chat.chat_id, title: chat.title ?? "", body: chat.messages.join("\n\n") };
    if (this.chats.has(chat.chat_id)) this.mini.replace(doc);
    else this.mini.add(doc);
    this.chats.set(chat.chat_id, { ...chat, messages: [...chat.messages] });
  }

  rename(chatId: string, title: string): void {
    const chat = this.chats.get(chatId);
    if (chat) this.upsert({ ...chat, title });
  }

  remove(chatId: string): void {
    if (!this.chats.delete(chatId)) return;
    this.mini.discard(chatId);
  }

  /** The chats matching every word of `query`, best first, at most `limit`, without `exclude`. */
  search(query: string, options: { limit?: number; exclude?: ReadonlySet<string> } = {}): ChatSearchHit[] {
    if (query.trim() === "") return [];
    const exclude = options.exclude;
    const results = this.mini.search(query, exclude?.size ? { filter: (r) => !exclude.has(r.id as string) } : undefined);
    return results.slice(0, options.limit ?? 20).map((r) => {
      const chat = this.chats.get(r.id as string)!;
      const terms = new Set(r.terms);
      return {
        chat_id: chat.chat_id,
        title: highlight(chat.title || "Untitled Chat", chat.title ? terms : new Set()),
        snippet: snippetOf(chat.messages, terms),
        last_updated: chat.last_updated,
      };
    });
  }
}
