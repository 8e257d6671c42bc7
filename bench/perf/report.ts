/**
 * What bench/perf/run.ts prints (docs/issues.md #12, #24): the goals table (reference, Hush, ratio: medians
 * of the rounds, with each round's ratio), the milliseconds a turn adds over the bare proxy beside the
 * published overheads of other gateways, and, with PERF_CPU_PROF, the top self-time frames of each app
 * instance during each timed run.
 */
import fs from "node:fs";
import path from "node:path";
import { median } from "./client";
import { summarize } from "./cpuprofile-summary.mjs";

interface Row {
  goal: string;
  unit: string;
  /** "min": Hush/reference must be at least `bound`; "max": at most; "diff": Hush − reference, no goal. */
  kind: "min" | "max" | "info" | "diff";
  bound?: number;
  ref: number[];
  hush: number[];
}

const rows = new Map<string, Row>();

/** Add one round's reference and Hush figures to the row `key` (created with `meta` on first use). */
export function record(key: string, meta: Omit<Row, "ref" | "hush">, ref: number, hush: number) {
  const row = rows.get(key) ?? { ...meta, ref: [], hush: [] };
  row.ref.push(ref);
  row.hush.push(hush);
  rows.set(key, row);
}

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
const ratiosOf = (r: Row) => r.hush.map((h, i) => h / r.ref[i]!);

/** The goals table (markdown): every row but the added-milliseconds ones. */
export function printTable() {
  const lines = ["| Goal | Reference | Hush | Ratio (median; rounds) | Met |", "|---|---|---|---|---|"];
  for (const r of rows.values()) {
    if (r.kind === "diff") continue;
    const ratios = ratiosOf(r);
    const m = median(ratios);
    const met = r.kind === "info" ? "—" : (r.kind === "min" ? m >= r.bound! : m <= r.bound!) ? "yes" : "no";
    lines.push(
      `| ${r.goal} | ${fmt(median(r.ref))} ${r.unit} | ${fmt(median(r.hush))} ${r.unit} | ${m.toFixed(2)}× (${ratios
        .map((x) => x.toFixed(2))
        .join(", ")}) | ${met} |`,
    );
  }
  console.log(lines.join("\n"));
}

/**
 * Published gateway overheads the issue compares with (docs/issues.md #24): median added latency per
 * request over calling the provider directly, each from its vendor's own benchmark.
 */
const PUBLISHED = "LiteLLM +3.25 ms · Portkey +2.37 ms · TensorZero +0.35 ms (median added latency, vendors' published benchmarks)";

/**
 * Added milliseconds per turn: for each path, Hush's TTFT p50 minus the bare proxy's at concurrency 1,
 * per round; the median of the rounds and each round's difference, beside the published overheads.
 */
export function printOverheads() {
  const diffs = [...rows.values()].filter((r) => r.kind === "diff");
  if (!diffs.length) return;
  const lines = [
    "",
    `Added milliseconds per turn (Hush TTFT p50 − bare proxy TTFT p50, 1 concurrent; goal about 2 ms). Published: ${PUBLISHED}`,
    "| Path | Bare proxy TTFT p50 | Hush TTFT p50 | Added (median; rounds) |",
    "|---|---|---|---|",
  ];
  for (const r of diffs) {
    const d = r.hush.map((h, i) => h - r.ref[i]!);
    lines.push(`| ${r.goal} | ${fmt(median(r.ref))} ms | ${fmt(median(r.hush))} ms | +${fmt(median(d))} ms (${d.map((x) => fmt(x)).join(", ")}) |`);
  }
  console.log(lines.join("\n"));
}

/** One timed throughput run's CPU per unit of work (ms), split by process (bench/perf/client.ts throughput). */
export interface CpuSplit {
  rps: number;
  cpuPerReq: number;
  machinePerReq: number;
  clientPerReq: number;
  postgresPerReq: number;
}

const splits = new Map<string, { bare: CpuSplit[]; hush: CpuSplit[]; bound: number }>();

/** Add one round's split of the bare proxy's request and of a Hush unit of work (`label`), whose throughput goal is `bound`× bare. */
export function recordSplit(label: string, bound: number, bare: CpuSplit, hush: CpuSplit) {
  const s = splits.get(label) ?? { bare: [], hush: [], bound };
  s.bare.push(bare);
  s.hush.push(hush);
  splits.set(label, s);
}

/**
 * Where a unit's CPU goes when everything shares the machine (docs/issues.md #24): the whole machine's busy CPU
 * per unit, split into the server under test, the load client, PostgreSQL and the rest (the model, the
 * kernel, anything else running); then the throughput ratio the machine's cores would allow if the server
 * cost nothing (every core busy with the rest), and the server CPU per unit the goal leaves. Medians of the
 * rounds.
 */
export function printSplits(cores: number) {
  if (!splits.size) return;
  const lines = [
    "",
    `Where the CPU goes, ms per unit of work (whole machine's busy CPU, ${cores} cores; medians of the rounds)`,
    "| Unit | Machine | Server | Load client | PostgreSQL | Rest | Ratio if the server cost nothing | Server budget at the goal |",
    "|---|---|---|---|---|---|---|---|",
  ];
  const m = (xs: CpuSplit[], f: (x: CpuSplit) => number) => median(xs.map(f));
  let lastBare = "";
  for (const [label, s] of splits) {
    const row = (name: string, xs: CpuSplit[], bareRps: number | null) => {
      const machine = m(xs, (x) => x.machinePerReq);
      const server = m(xs, (x) => x.cpuPerReq);
      const client = m(xs, (x) => x.clientPerReq);
      const postgres = m(xs, (x) => x.postgresPerReq);
      const outside = machine - server;
      // All cores busy with what is not the server: the most units per second, against the bare proxy's.
      const ceiling = bareRps === null ? "—" : `${((cores * 1000) / outside / bareRps).toFixed(2)}×`;
      const budget = bareRps === null ? "—" : `${fmt((cores * 1000) / (s.bound * bareRps) - outside)} ms`;
      return `| ${name} | ${fmt(machine)} | ${fmt(server)} | ${fmt(client)} | ${fmt(postgres)} | ${fmt(machine - server - client - postgres)} | ${ceiling} | ${budget} |`;
    };
    // Units measured against the same bare runs share one reference row.
    const bareRow = row("bare proxy, one request", s.bare, null);
    if (bareRow !== lastBare) lines.push(bareRow);
    lastBare = bareRow;
    lines.push(row(label, s.hush, m(s.bare, (x) => x.rps)));
  }
  console.log(lines.join("\n"));
}

/** Rows as JSON for bench/all-goals.mjs (PERF_JSON). */
export function writeJson(file: string) {
  const out = [...rows.values()].map((r) => {
    const ratios = r.kind === "diff" ? r.hush.map((h, i) => h - r.ref[i]!) : ratiosOf(r);
    return { goal: r.goal, unit: r.unit, kind: r.kind, bound: r.bound ?? null, ref: median(r.ref), hush: median(r.hush), ratio: median(ratios), rounds: ratios };
  });
  fs.writeFileSync(file, JSON.stringify(out, null, 2));
}

// ---------------------------------------------------------------------------------------------------
// CPU profile windows

/** The monotonic clock in microseconds: the clock of V8's profile timestamps (CLOCK_MONOTONIC on Linux). */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const windows = new Map<string, { instance: string; spans: [number, number][] }>();

/** Run `fn`, noting its interval as a window of `label` in the profile of `instance` (an app's name). */
export async function profiled<T>(label: string, instance: string, fn: () => Promise<T>): Promise<T> {
  const t0 = nowUs();
  try {
    return await fn();
  } finally {
    const w = windows.get(label) ?? { instance, spans: [] };
    w.spans.push([t0, nowUs()]);
    windows.set(label, w);
  }
}

const NOT_WORK = /^\((idle|program|garbage collector|root)\)/;

/**
 * With PERF_CPU_PROF, after the instances have exited (their profiles are written at exit): for each
 * window label, the top `n` self-time frames of that instance's profiles (every thread's file) within
 * the label's intervals, idle, GC and (program) left out; shares are of the window's busy samples.
 */
export function printProfiles(dir: string | undefined, n = 5) {
  if (!dir || !windows.size) return;
  const lines = ["", `CPU profile (node --cpu-prof, ${dir}): top ${n} self-time frames of the app instance during each timed run (idle, GC, program excluded)`];
  for (const [label, w] of windows) {
    const folder = path.resolve(dir, w.instance);
    const files = fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith(".cpuprofile")) : [];
    if (!files.length) {
      lines.push(`- ${label} (${w.instance}): no profile in ${folder}`);
      continue;
    }
    const byFn = new Map<string, number>();
    const byOwner = new Map<string, number>();
    let busy = 0;
    for (const f of files) {
      const s = summarize(JSON.parse(fs.readFileSync(path.join(folder, f), "utf8")), { windows: w.spans });
      for (const [k, ms] of s.byFn) {
        if (NOT_WORK.test(k)) continue;
        busy += ms;
        byFn.set(k, (byFn.get(k) ?? 0) + ms);
      }
      for (const [k, ms] of s.byOwner) if (!NOT_WORK.test(k)) byOwner.set(k, (byOwner.get(k) ?? 0) + ms);
    }
    const secs = w.spans.reduce((a, [s, e]) => a + (e - s), 0) / 1e6;
    lines.push(`- ${label} (${w.instance}; ${secs.toFixed(1)} s timed, ${busy.toFixed(0)} ms busy in frames):`);
    for (const [k, ms] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, n)) {
      lines.push(`    ${((100 * ms) / Math.max(busy, 1e-9)).toFixed(1).padStart(5)}% ${ms.toFixed(0).padStart(6)} ms  ${k}`);
    }
    // Node's internals and V8's builtins charged to the package (or our lib, app folders) that called them.
    const owners = [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, n);
    lines.push(`    by caller: ${owners.map(([k, ms]) => `${k} ${((100 * ms) / Math.max(busy, 1e-9)).toFixed(0)}%`).join(" · ")}`);
  }
  console.log(lines.join("\n"));
}
