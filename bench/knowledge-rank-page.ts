import type { FilePassage } from "../lib/browser/knowledge/file-passage";
import { bm25Retriever, passagesForTurn } from "../lib/browser/knowledge/retrieval";

/**
 * The in-page half of bench/knowledge-rank.ts, bundled by esbuild and run in Chromium: N synthetic passages of
 * ~1,200 characters over a 5,000-word vocabulary (Zipf-like draw), then `runs` rounds of: build the BM25 index, rank
 * one question (3 to 8 words) with passagesForTurn, rank a second one. Returns median, p95 and max of each, in ms.
 */
async function runBench(n: number, runs: number) {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const vocab = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x${(i * 7919) % 997}`);
  const word = () => vocab[Math.floor(vocab.length * rnd() ** 3)]!;
  const passages: FilePassage[] = Array.from({ length: n }, (_, i) => {
    const words: string[] = [];
    while (words.join(" ").length < 1200) words.push(word());
    return { fileName: `file-${i % 10}.txt`, section: `part ${i + 1}`, text: words.join(" ") };
  });
  const questions = Array.from({ length: runs }, () => Array.from({ length: 3 + Math.floor(rnd() * 6) }, word).join(" "));
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { median: s[Math.floor(s.length / 2)]!, p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]!, max: s[s.length - 1]! };
  };
  const builds: number[] = [];
  const turns: number[] = [];
  const firsts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = bm25Retriever(passages);
    const t1 = performance.now();
    await passagesForTurn(r, questions[i]!);
    const t2 = performance.now();
    await passagesForTurn(r, questions[(i + 1) % runs]!);
    const t3 = performance.now();
    builds.push(t1 - t0);
    firsts.push(t2 - t0);
    turns.push(t3 - t2);
  }
  return { build: stats(builds), turn: stats(turns), buildPlusTurn: stats(firsts) };
}

(window as unknown as { runBench: typeof runBench }).runBench = runBench;
