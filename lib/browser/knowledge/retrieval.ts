import type { FilePassage } from "./file-passage";
import { KNOWLEDGE_MAX_PASSAGES, KNOWLEDGE_PROMPT_BUDGET_TOKENS } from "@/lib/shared/projects/knowledge-limits";

// Retrieval over a project's passages, in the browser: no index of them exists on the server.

export interface Retriever {
  rank(query: string, limit: number): FilePassage[] | Promise<FilePassage[]>;
}

const STOP = new Set(
  "a an and are as at be but by do does for from has have how i in is it its me my of on or our so that the their them then there these they this to was we were what when where which who why will with you your".split(
    " ",
  ),
);

export function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length > 1 && !STOP.has(t));
}

const K1 = 1.2;
const B = 0.75;

/** BM25 over `passages` (idf +1 so never negative); ranking touches only passages holding a query term. */
export function bm25Retriever(passages: readonly FilePassage[]): Retriever {
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

const estimate = (text: string) => Math.ceil(new TextEncoder().encode(text).byteLength / 4);

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
