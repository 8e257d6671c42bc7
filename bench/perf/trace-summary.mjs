#!/usr/bin/env node
/**
 * The JavaScript time of each thread in a Chromium trace recorded with V8's sampler
 * (disabled-by-default-v8.cpu_profiler; bench/search-page.bench.ts SEARCH_BENCH_TRACE), and each thread's
 * top functions by self time, in ms. Usage: `node bench/perf/trace-summary.mjs <trace.json> [top=15]`.
 */
import fs from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/perf/trace-summary.mjs <trace.json> [top]");
  process.exit(2);
}
const top = Number(topArg ?? 15);
const raw = JSON.parse(fs.readFileSync(file, "utf8"));
const events = Array.isArray(raw) ? raw : raw.traceEvents;
const threadName = new Map();
for (const e of events) if (e.name === "thread_name") threadName.set(`${e.pid}:${e.tid}`, e.args.name);

// One profile per (pid, id): its nodes and samples arrive in ProfileChunk events.
const profiles = new Map();
for (const e of events) {
  if (e.name === "Profile") profiles.set(`${e.pid}:${e.id}`, { thread: `${e.pid}:${e.tid}`, nodes: new Map(), samples: [], deltas: [] });
  if (e.name !== "ProfileChunk") continue;
  const p = profiles.get(`${e.pid}:${e.id}`);
  if (!p) continue;
  const data = e.args.data;
  for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
  p.samples.push(...(data.cpuProfile?.samples ?? []));
  p.deltas.push(...(data.timeDeltas ?? []));
}
for (const p of profiles.values()) {
  const self = new Map();
  let total = 0;
  p.samples.forEach((id, i) => {
    const n = p.nodes.get(id);
    const ms = (p.deltas[i + 1] ?? 0) / 1000;
    const f = n?.callFrame ?? {};
    const name = f.functionName || "(anonymous)";
    if (name === "(idle)" || name === "(program)") return;
    const key = `${name} ${String(f.url ?? "").split("/").pop()}:${f.lineNumber ?? ""}:${f.columnNumber ?? ""}`;
    self.set(key, (self.get(key) ?? 0) + ms);
    total += ms;
  });
  if (total < 5) continue;
  console.log(`\n${threadName.get(p.thread) ?? p.thread}: ${total.toFixed(0)} ms of JavaScript and GC sampled`);
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms.toFixed(1).padStart(8)}  ${k}`);
}
