/**
 * Page extraction's server CPU (docs/issues.md #51 "Page extraction of a 1 MB HTML page: ≤ 1.2× Readability alone
 * on the same DOM"), in this process:
 *
 *   npm run bench:page-extraction            # BENCH_ROUNDS (3), BENCH_RUNS runs of each per round (5)
 *
 * The page: tests/helpers/article-page.ts, 1 MiB, article-like (navigation, sidebar, sections, lists, tables,
 * figures, code, comments), the same on every run. Measured, interleaved within each round:
 *   hush:        extractPage (lib/server/read-page/extract.ts) as the read_page tool calls it: the bytes to the
 *                extraction worker (lib/server/read-page/extract-pool.ts), decoded, Readability, Markdown of the
 *                first READ_PAGE_MAX_CHARS, back;
 *   readability: the reference, linkedom's parseHTML and Readability.parse() on this thread, nothing else;
 *   in-thread:   Hush's htmlToMarkdown (lib/server/read-page/markdown.ts) on this thread: the worker hop is
 *                hush − in-thread;
 *   whole:       the extraction as it was before the worker: Readability's article serialised, parsed again and
 *                turned whole into Markdown, on this thread.
 * CPU time is the process's (process.cpuUsage: every thread, the worker's included), per run; each figure is the
 * median of a round's runs, the ratio a round's hush/readability, and the report the median over rounds. The
 * worker is warm (one read before the rounds; its first read, cold, is reported on its own). READ_PAGE_EXTRACT_TIMEOUT_MS
 * is 120 s here unless set, so that a loaded machine does not cut a run.
 */
import os from "node:os";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { getConfig } from "../lib/server/config";
import { closeExtractWorkers, extractPage } from "../lib/server/read-page";
import { htmlToMarkdown } from "../lib/server/read-page/markdown";
import { articlePage } from "../tests/helpers/article-page";

// CPU is measured, not the time limit: a loaded machine must not cut a run (the limit is tested in
// tests/unit/read-page-extract.test.ts).
process.env.READ_PAGE_EXTRACT_TIMEOUT_MS ??= "120000";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** CPU milliseconds of the whole process so far (user + system, every thread). */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const html = articlePage(1 << 20);
const bytes = Buffer.from(html);
const maxChars = getConfig().READ_PAGE_MAX_CHARS;
const page = () => ({ url: new URL("https://example.org/article"), contentType: "text/html; charset=utf-8", bytes, cut: false });

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
turndown.remove(["script", "style", "noscript", "iframe", "template", "form"]);

type Target = "hush" | "readability" | "in-thread" | "whole";
const targets: Record<Target, () => Promise<unknown> | unknown> = {
  hush: () => extractPage(page(), maxChars),
  readability: () => new Readability(parseHTML(new TextDecoder().decode(bytes)).document as unknown as Document).parse(),
  "in-thread": () => htmlToMarkdown(new TextDecoder().decode(bytes), maxChars),
  whole: () => {
    const article = new Readability(parseHTML(new TextDecoder().decode(bytes)).document as unknown as Document).parse();
    return turndown.turndown(parseHTML(`<!doctype html><html><body>${article!.content}</body></html>`).document.body as unknown as HTMLElement);
  },
};
const names = Object.keys(targets) as Target[];

async function once(target: Target): Promise<{ cpu: number; wall: number }> {
  const cpu0 = cpuMs();
  const wall0 = performance.now();
  await targets[target]();
  return { cpu: cpuMs() - cpu0, wall: performance.now() - wall0 };
}

async function main() {
  console.log(`page ${bytes.length} bytes, READ_PAGE_MAX_CHARS ${maxChars}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const cold = await once("hush");
  console.log(`hush, first read (the worker starting): ${cold.cpu.toFixed(0)} ms CPU, ${cold.wall.toFixed(0)} ms wall`);
  for (const t of names) await once(t);

  const perRound: Record<Target, { cpu: number; wall: number }>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const samples = Object.fromEntries(names.map((t) => [t, [] as { cpu: number; wall: number }[]])) as Record<Target, { cpu: number; wall: number }[]>;
    for (let run = 0; run < RUNS; run++) {
      // Interleaved, and the order turned each run so none always follows the same one.
      const order = names.map((_, i) => names[(i + run + round) % names.length]!);
      for (const t of order) samples[t].push(await once(t));
    }
    const medians = Object.fromEntries(
      names.map((t) => [t, { cpu: median(samples[t].map((s) => s.cpu)), wall: median(samples[t].map((s) => s.wall)) }]),
    ) as Record<Target, { cpu: number; wall: number }>;
    perRound.push(medians);
    console.log(
      `round ${round + 1}: ` +
        names.map((t) => `${t} ${medians[t].cpu.toFixed(0)} ms CPU (${medians[t].wall.toFixed(0)} wall)`).join(", ") +
        `; hush/readability ${(medians.hush.cpu / medians.readability.cpu).toFixed(2)}×`,
    );
  }
  const med = (t: Target, k: "cpu" | "wall") => median(perRound.map((r) => r[t][k]));
  const ratio = (a: Target, b: Target) => median(perRound.map((r) => r[a].cpu / r[b].cpu));
  console.log("\nmedians over rounds (server CPU, ms):");
  for (const t of names) console.log(`  ${t.padEnd(12)} ${med(t, "cpu").toFixed(0).padStart(5)} ms CPU  ${med(t, "wall").toFixed(0).padStart(5)} ms wall`);
  console.log(`  hush/readability      ${ratio("hush", "readability").toFixed(2)}× (goal ≤ 1.2×)`);
  console.log(`  in-thread/readability ${ratio("in-thread", "readability").toFixed(2)}×`);
  console.log(`  whole/readability     ${ratio("whole", "readability").toFixed(2)}×`);
  console.log(`  worker hop (hush − in-thread): ${(med("hush", "cpu") - med("in-thread", "cpu")).toFixed(0)} ms CPU`);
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  await closeExtractWorkers();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
