/**
 * Project knowledge ranking speed (docs/issues.md #41: "ranking 1,000 passages takes ≤ 300 ms in Chromium").
 * Bundles ./knowledge-rank-page.ts (the BM25 retriever of lib/browser/knowledge/retrieval.ts) with esbuild, loads it in headless
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

/** Bundle, load, measure in Chromium and print the numbers. */
async function main() {
  const bundle = await build({
    entryPoints: ["bench/knowledge-rank-page.ts"],
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
  const result = (await page.evaluate(`window.runBench(${N}, ${RUNS})`)) as Record<"build" | "turn" | "buildPlusTurn", { median: number; p95: number; max: number }>;
  const version = browser.version();
  await browser.close();
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  console.log(`Chromium ${version}, ${N} passages of ~1,200 characters, ${RUNS} runs`);
  for (const [what, s] of Object.entries(result)) console.log(`${what.padEnd(14)} median ${ms(s.median)}  p95 ${ms(s.p95)}  max ${ms(s.max)}`);
  const worst = result.buildPlusTurn.max;
  console.log(worst <= 300 ? `OK: build + rank at most ${ms(worst)} (≤ 300 ms)` : `OVER: build + rank took ${ms(worst)} (> 300 ms)`);
}

void main();
