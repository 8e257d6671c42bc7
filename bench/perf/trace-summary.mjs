#!/usr/bin/env node
/**
 * The JavaScript time of each thread in a Chromium trace recorded with V8's sampler
 * (disabled-by-default-v8.cpu_profiler; bench/search-page.bench.ts SEARCH_BENCH_TRACE), and each thread's
 * top functions by self time, in ms: each thread's samples are put together as a .cpuprofile and read by
 * ./cpuprofile-summary.mjs's `summarize`. Usage: `node bench/perf/trace-summary.mjs <trace.json> [top=15]`.
 */
import fs from "node:fs";
import { summarize } from "./cpuprofile-summary.mjs";

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

// One profile per (pid, id): it starts with a Profile event; its nodes (each naming its parent) and
// samples arrive in ProfileChunk events.
const profiles = new Map();
for (const e of events) {
  if (e.name === "Profile") {
    profiles.set(`${e.pid}:${e.id}`, { thread: `${e.pid}:${e.tid}`, startTime: e.args.data?.startTime ?? 0, nodes: new Map(), samples: [], timeDeltas: [] });
  }
  if (e.name !== "ProfileChunk") continue;
  const p = profiles.get(`${e.pid}:${e.id}`);
  if (!p) continue;
  const data = e.args.data;
  for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, { ...n, children: [] });
  p.samples.push(...(data.cpuProfile?.samples ?? []));
  p.timeDeltas.push(...(data.timeDeltas ?? []));
}
for (const p of profiles.values()) {
  for (const n of p.nodes.values()) if (n.parent !== undefined) p.nodes.get(n.parent)?.children.push(n.id);
  const { total, byGroup, byFn } = summarize({ nodes: [...p.nodes.values()], samples: p.samples, timeDeltas: p.timeDeltas, startTime: p.startTime });
  // "(program)": the thread busy outside JavaScript (rendering, messaging), not counted here.
  const js = total - (byGroup.get("(program)") ?? 0);
  if (js < 5) continue;
  console.log(`\n${threadName.get(p.thread) ?? p.thread}: ${js.toFixed(0)} ms of JavaScript and GC sampled`);
  const fns = [...byFn].filter(([k]) => !k.startsWith("(program)")).sort((a, b) => b[1] - a[1]);
  for (const [k, ms] of fns.slice(0, top)) console.log(`${ms.toFixed(1).padStart(8)}  ${k}`);
}
