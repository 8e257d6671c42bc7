import MiniSearch, { type Options } from "minisearch";

/**
 * Search over the user's saved chats (docs/issues.md #9 History: "Search my chats"), run in the browser over
 * the decrypted titles and messages: the server cannot search what it cannot read. One MiniSearch
 * document per chat (title + every message's text); prefix matching as one types, a little typo
 * tolerance on longer words, all words must match, title hits rank higher. Pure: no fetch, no DOM;
 * bench/search.ts measures it on 1,000 chats.
 */

/** One decrypted chat as the index holds it. */
export interface SearchableChat {
  chat_id: string;
  /** The display name, null for "Untitled Chat". */
  title: string | null;
  /** Each message's text, in order. */
  messages: string[];
  /** ISO timestamp, to tell a stale copy from the list's. */
  last_updated: string;
}

/** A piece of text, `match` when it is a word the query matched (to be highlighted). */
export interface Segment {
  text: string;
  match: boolean;
}

/** One result: the title and, when the words are in the messages, a snippet around the first hit. */
export interface ChatSearchHit {
  chat_id: string;
  title: Segment[];
  snippet: Segment[] | null;
  last_updated: string;
}

/** MiniSearch's default tokenizer: runs of spaces and punctuation separate words. */
const SEPARATOR = /[\n\r\p{Z}\p{P}]+/u;
const SPLIT_KEEPING = /([\n\r\p{Z}\p{P}]+)/u;
/** SEPARATOR's ASCII characters (tests/unit/chat-search.test.ts checks all 128): a Unicode-property class costs more per character. */
const ASCII_SEPARATOR = /[\n\r !"#%&'()*,\-./:;?@[\\\]_{}]+/;
const NON_ASCII = /[^\x00-\x7f]/;

/** The words of `text` as MiniSearch's default tokenizer splits them (SEPARATOR), faster on ASCII text. */
export function tokenize(text: string): string[] {
  return NON_ASCII.test(text) ? text.split(SEPARATOR) : text.split(ASCII_SEPARATOR);
}

/** The internals of minisearch@7 that lookUpTermsOncePerDocument uses (not in its typings). */
interface MiniSearchInternals {
  add(document: unknown): void;
  addTerm(fieldId: number, documentId: number, term: string): void;
  _index: { fetch(term: string, initial: () => Map<number, Map<number, number>>): Map<number, Map<number, number>> };
}

/**
 * Make `mini` look up each distinct term of a document once per add() instead of once per occurrence.
 * MiniSearch 7 walks its radix tree for every occurrence of a word (addTerm); a chat repeats its words
 * tens of times. Within one synchronous add() a term's postings are one Map object (vacuuming, which
 * may delete it, runs later), so it is cached for that add only and the counts go where MiniSearch puts
 * them: the same index, built in about 0.6× the time (bench/search.ts, docs/performance.md). Uses two
 * internals, addTerm and _index.fetch; when this minisearch has not got them, `mini` is left as it is.
 * tests/unit/chat-search.test.ts checks that the serialized index equals MiniSearch's own.
 */
export function lookUpTermsOncePerDocument<T>(mini: MiniSearch<T>): MiniSearch<T> {
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

/** Characters of context shown before the first matched word of a snippet, and in all. */
const SNIPPET_BEFORE = 40;
const SNIPPET_LENGTH = 160;

/**
 * Split `text` into plain and matched pieces: a word matches when its lowercase form is one of
 * `terms` (the index's matched words, lowercase). Separators are never matched.
 */
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

/**
 * A one-line excerpt of the first message containing a matched word, about `SNIPPET_LENGTH`
 * characters starting a little before that word, cut at word boundaries, with "…" where cut.
 * null when no message contains one (the match was in the title only).
 */
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

/** The index's options: one document per chat, prefix matching, small typos on longer words, all words, titles first. */
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

  /** How many chats are indexed. */
  get size(): number {
    return this.chats.size;
  }

  /** The indexed copy of a chat, if any. */
  get(chatId: string): SearchableChat | undefined {
    return this.chats.get(chatId);
  }

  /** The ids of the indexed chats. */
  ids(): string[] {
    return [...this.chats.keys()];
  }

  /** Add a chat, or replace the indexed copy of it (a saved turn, a rename). */
  upsert(chat: SearchableChat): void {
    const doc = { id: chat.chat_id, title: chat.title ?? "", body: chat.messages.join("\n\n") };
    if (this.chats.has(chat.chat_id)) this.mini.replace(doc);
    else this.mini.add(doc);
    this.chats.set(chat.chat_id, { ...chat, messages: [...chat.messages] });
  }

  /** Change only the title of an indexed chat (no-op when it is not indexed). */
  rename(chatId: string, title: string): void {
    const chat = this.chats.get(chatId);
    if (chat) this.upsert({ ...chat, title });
  }

  /** Drop a chat (deleted). */
  remove(chatId: string): void {
    if (!this.chats.delete(chatId)) return;
    this.mini.discard(chatId);
  }

  /**
   * The chats matching every word of `query` (prefix and small typos allowed), best first, at most
   * `limit`, without the ids in `exclude` (e.g. chats whose deletion can still be undone); each with
   * its title and a snippet split into highlighted pieces. An empty query finds nothing.
   */
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
