import type { FilePassage } from "./file-passage";
import { KNOWLEDGE_MAX_PASSAGES, KNOWLEDGE_PROMPT_BUDGET_TOKENS } from "@/lib/shared/projects/knowledge-limits";

/**
 * Retrieval over a project's passages (docs/issues.md #41, "Project knowledge"), in the browser: the files are
 * opened here and ranked here, so no index of them exists on the server. `Retriever` is the seam: BM25 now
 * (bm25Retriever); an embedding model can implement the same interface later.
 */

/** Ranks passages for a question. */
export interface Retriever {
  /** The passages relevant to `query` (sharing at least one term), best first, at most `limit`. */
  rank(query: string, limit: number): FilePassage[] | Promise<FilePassage[]>;
}

// Common English words that say nothing about a passage's subject.
const STOP = new Set(
  "a an and are as at be but by do does for from has have how i in is it its me my of on or our so that the their them then there these they this to was we were what when where which who why will with you your".split(
    " ",
  ),
);

/** The terms of `text`: lowercase runs of letters and digits (any script), stop words and single letters left out. */
export function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length > 1 && !STOP.has(t));
}

/** BM25 parameters: term-frequency saturation and length normalisation (the usual values). */
const K1 = 1.2;
const B = 0.75;

/**
 * BM25 over `passages` (Robertson/Spärck Jones idf with +1 so it is never negative). The index is built once here
 * (term frequencies per passage, document frequencies); ranking a query then touches only the passages that
 * hold one of its terms. Ties keep the files' order.
 */
export function bm25Retriever(passages: readonly FilePassage[]): Retriever {
  // Per term, a flat list of (passage, term frequency) pairs: no object per posting.
  const postings = new Map<string, number[]>();
  const lengths = new Float64Array(passages.length);
  passages.forEach((p, doc) => {
    const counts = new Map<string, number>();
    const words = terms(`${p.section} ${p.text}`);
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    lengths[doc] = words.length;
    for (const [term, tf] of counts) {
      const list = postings.get(term);
      if (list) list.push(doc, tf);
      else postings.set(term, [doc, tf]);
    }
  });
  const n = passages.length;
  const avg = n ? lengths.reduce((a, b) => a + b, 0) / n || 1 : 1;
  return {
    rank(query, limit) {
      const scores = new Map<number, number>();
      for (const term of new Set(terms(query))) {
        const list = postings.get(term);
        if (!list) continue;
        const df = list.length / 2;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (let i = 0; i < list.length; i += 2) {
          const doc = list[i]!;
          const tf = list[i + 1]!;
          const norm = tf + K1 * (1 - B + (B * lengths[doc]!) / avg);
          scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / norm);
        }
      }
      return [...scores]
        .sort((x, y) => y[1] - x[1] || x[0] - y[0])
        .slice(0, limit)
        .map(([doc]) => passages[doc]!);
    },
  };
}

/** Estimated tokens of `text`: its UTF-8 bytes / 4 (as the model budgets count elsewhere). */
const estimate = (text: string) => Math.ceil(new TextEncoder().encode(text).byteLength / 4);

/**
 * The passages sent with a turn: the best ranked for `query`, within `budgetTokens` and `maxPassages`, best first.
 * A passage that does not fit is skipped (a shorter one after it may still fit).
 */
export async function passagesForTurn(
  retriever: Retriever,
  query: string,
  budgetTokens = KNOWLEDGE_PROMPT_BUDGET_TOKENS,
  maxPassages = KNOWLEDGE_MAX_PASSAGES,
): Promise<FilePassage[]> {
  const out: FilePassage[] = [];
  let used = 0;
  for (const p of await retriever.rank(query, maxPassages * 3)) {
    const cost = estimate(p.text) + 16;
    if (used + cost > budgetTokens) continue;
    used += cost;
    out.push(p);
    if (out.length >= maxPassages) break;
  }
  return out;
}
