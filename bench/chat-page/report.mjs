/**
 * bench/chat-page.mjs's output: a line per measured run, the --json file for bench/all-goals.mjs, and the table of
 * medians per target with this/reference ratios and the goals of docs/issues.md #12.
 */
import { writeFileSync } from "node:fs";
import { ANSWER_TOKENS, MESSAGES, ROUNDS } from "./options.mjs";
import { median } from "./stats.mjs";

/** The table's rows: [label, key of a measure() result, goal]. */
const rows = [
  ["open: last messages shown (ms)", "openMs", "< 300"],
  ["open: tasks > 50 ms (count)", "openLongTasks", ""],
  ["open: longest task (ms)", "openLongest", ""],
  ["stream: tasks > 50 ms (count)", "longTasks", "0"],
  ["stream: longest task (ms)", "longestTask", "<= 50"],
  ["stream: main thread blocked (share)", "blockedShare", ""],
  ["keydown-to-paint p95 (ms)", "keyP95", "<= 50"],
  ["keydown-to-paint p50 (ms)", "keyP50", ""],
];

/** Print one counted run `r` (a measure() result) of target `t` in round `round`. */
export function printRun(round, t, r) {
  console.log(
    `round ${round} ${t.name.padEnd(9)} open ${r.openMs.toFixed(0)} ms (${r.openLongTasks} tasks > 50 ms, longest ${r.openLongest.toFixed(0)} ms) | ` +
      `stream ${r.streamSeconds.toFixed(1)} s: ${r.longTasks} tasks > 50 ms, longest ${r.longestTask.toFixed(0)} ms, ` +
      `blocked ${(100 * r.blockedShare).toFixed(0)}% | keydown-to-paint p50 ${r.keyP50.toFixed(0)} p95 ${r.keyP95.toFixed(0)} max ${r.keyMax.toFixed(0)} ms (${r.keys} keys)`,
  );
}

/** Print the uncounted profiled run `r` of target `t` (BENCH_PROFILE=1). */
export function printProfiledRun(t, r) {
  console.log(`profiled run ${t.name} (not counted): open ${r.openMs.toFixed(0)} ms, stream ${r.longTasks} tasks > 50 ms, longest ${r.longestTask.toFixed(0)} ms, keydown-to-paint p95 ${r.keyP95.toFixed(0)} ms`);
}

/** Write target `t`'s medians and runs to `file` as { rounds, medians: { key: number }, runs } (--json, for bench/all-goals.mjs). */
export function writeJson(file, t) {
  const m = Object.fromEntries(rows.map(([, key]) => [key, median(t.runs.map((r) => r[key]))]));
  writeFileSync(file, JSON.stringify({ rounds: ROUNDS, medians: m, runs: t.runs.map(({ keys, ...r }) => ({ ...r, keys })) }));
}

/** Print the table of medians over each target's `runs`, with this/reference ratios when there are two targets. */
export function printTable(targets) {
  console.log(`\n${MESSAGES}-message chat, ${ANSWER_TOKENS}-token answer, medians of ${ROUNDS} interleaved rounds`);
  console.log(`${"metric".padEnd(38)}${"goal".padStart(8)}${targets.map((t) => t.name.padStart(12)).join("")}${targets.length > 1 ? "   this/ref" : ""}`);
  for (const [label, key, goal] of rows) {
    const values = targets.map((t) => median(t.runs.map((r) => r[key])));
    const fmt = (v) => (key === "blockedShare" ? `${(100 * v).toFixed(0)}%` : v.toFixed(0)).padStart(12);
    const ratio = values.length > 1 && values[0] > 0 ? `   ${(values[1] / values[0]).toFixed(2)}×` : "";
    console.log(`${label.padEnd(38)}${goal.padStart(8)}${values.map(fmt).join("")}${ratio}`);
  }
}
