/**
 * Project knowledge ranking speed (docs/issues.md #41: "ranking 1,000 passages takes ≤ 300 ms in Chromium").
 * Bundles lib/browser/knowledge (passages.ts and the BM25 retriever in retrieval.ts) with esbuild, loads it in headless
 * Chromium (/usr/bin/chromium, or CHROMIUM_PATH) and measures there, on N synthetic passages of ~1,200 characters
 * (the splitter's target) over a varied vocabulary:
 * - building the index (bm25Retriever over all N passages), as a project's files are opened;
 * - one turn's ranking (passagesForTurn: rank, budget, cap) for questions of 3 to 8 words, median and p95 of RUNS;
 * - build + one turn together (the worst case: the first turn after the files are opened).
 *
 * Run: `npx tsx bench/knowledge-rank.ts [N=1000] [RUNS=50]`
 */
import { build } from "esbuild";
import { chromium } from "@playwright/test";

const N = Number(process.argv[2] ?? 1000);
const RUNS = Number(process.argv[3] ?? 50);

const bundle = await build({
  stdin: {
    contents: `import { bm25Retriever, passagesForTurn } from "./lib/browser/knowledge/retrieval"; window.knowledge = { bm25Retriever, passagesForTurn };`,
    resolveDir: process.cwd(),
    loader: "ts",
  },
  bundle: true,
  format: "iife",
  write: false,
  tsconfig: "tsconfig.json",
});
const code = bundle.outputFiles[0]!.text;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu"] });
const page = await browser.newPage();
await page.setContent("<!doctype html><title>bench</title>");
await page.addScriptTag({ content: code });
const result = await page.evaluate(
  ({ n, runs }) => {
    type K = { bm25Retriever: (p: unknown[]) => unknown; passagesForTurn: (r: unknown, q: string) => Promise<unknown[]> };
    const k = (window as unknown as { knowledge: K }).knowledge;
    // A vocabulary of 5,000 made-up words with a Zipf-like draw, so common and rare terms both occur.
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const vocab = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x${(i * 7919) % 997}`);
    const word = () => vocab[Math.floor(vocab.length * rnd() ** 3)]!;
    const passages = Array.from({ length: n }, (_, i) => {
      const words: string[] = [];
      while (words.join(" ").length < 1200) words.push(word());
      return { fileName: `file-${i % 10}.txt`, section: `part ${i + 1}`, text: words.join(" ") };
    });
    const questions = Array.from({ length: runs }, () => Array.from({ length: 3 + Math.floor(rnd() * 6) }, word).join(" "));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
    return (async () => {
      const builds: number[] = [];
      const turns: number[] = [];
      const firsts: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const r = k.bm25Retriever(passages);
        const t1 = performance.now();
        await k.passagesForTurn(r, questions[i]!);
        const t2 = performance.now();
        await k.passagesForTurn(r, questions[(i + 1) % runs]!);
        const t3 = performance.now();
        builds.push(t1 - t0);
        firsts.push(t2 - t0);
        turns.push(t3 - t2);
      }
      return {
        build: { median: median(builds), p95: p95(builds), max: Math.max(...builds) },
        turn: { median: median(turns), p95: p95(turns), max: Math.max(...turns) },
        buildPlusTurn: { median: median(firsts), p95: p95(firsts), max: Math.max(...firsts) },
      };
    })();
  },
  { n: N, runs: RUNS },
);
const version = browser.version();
await browser.close();
const ms = (x: number) => `${x.toFixed(2)} ms`;
console.log(`Chromium ${version}, ${N} passages of ~1,200 characters, ${RUNS} runs`);
for (const [what, s] of Object.entries(result)) console.log(`${what.padEnd(14)} median ${ms(s.median)}  p95 ${ms(s.p95)}  max ${ms(s.max)}`);
const worst = result.buildPlusTurn.max;
console.log(worst <= 300 ? `OK: build + rank at most ${ms(worst)} (≤ 300 ms)` : `OVER: build + rank took ${ms(worst)} (> 300 ms)`);
