#!/usr/bin/env node
/**
 * Self time of a V8 .cpuprofile (from `PERF_CPU_PROF=dir npm run bench:perf`, docs/performance.md) by
 * package and by function, docs/issues.md #12. Frames in Next's build output (.next/…) are mapped back to their
 * sources through the build's source maps, so bundled packages and our own code (lib/, app/) show by
 * name. Usage:
 *
 *   node bench/perf/cpuprofile-summary.mjs <file.cpuprofile> [--after <regex>] [--skip <ms>] [--top 30]
 *
 * --after: count only samples from the first one whose stack has a frame (function name or mapped
 * source) matching the regex, e.g. `chat_history` to leave out the server's start-up; --skip: and
 * only from `ms` later (the first requests of a route load and compile its modules).
 * Times are milliseconds of self time; shares are of the non-idle samples in the window.
 * `@jridgewell/trace-mapping` comes with Next's and Vitest's dependencies (not a direct one).
 *
 * bench/perf/run.ts imports `summarize` (docs/issues.md #24) to print the top self-time frames of each app
 * instance during each of its timed runs: `windows` limits the samples to those intervals of the
 * monotonic clock (microseconds, as V8's profile `startTime` and Node's `process.hrtime`).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { AnyMap, originalPositionFor } from "@jridgewell/trace-mapping";

const maps = new Map();
/** The source map of a generated file, or null. */
function mapFor(url) {
  if (!maps.has(url)) {
    let map = null;
    try {
      const p = url.startsWith("file://") ? fileURLToPath(url) : url;
      if (p.includes(`${path.sep}.next${path.sep}`) && fs.existsSync(`${p}.map`)) map = new AnyMap(fs.readFileSync(`${p}.map`, "utf8"));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** Where a frame comes from: { source, line, name } with source mapped through the build's maps (line "line:column" when not). */
function locate(cf) {
  const map = cf.url ? mapFor(cf.url) : null;
  if (map) {
    const o = originalPositionFor(map, { line: cf.lineNumber + 1, column: cf.columnNumber });
    if (o.source) return { source: o.source, line: o.line, name: cf.functionName || o.name || "(anonymous)" };
  }
  // Unmapped: the column too, as a minified file has most of its functions on one line.
  return { source: cf.url, line: `${cf.lineNumber + 1}:${cf.columnNumber + 1}`, name: cf.functionName || "(anonymous)" };
}

/** The package (or group) a source belongs to. */
function groupOf(source, name) {
  if (!source) {
    if (/^\((garbage collector|program|idle|root)\)$/.test(name)) return name;
    return "V8 builtins (JSON, Buffer, RegExp…)";
  }
  if (source.startsWith("node:")) return `node:${source.slice(5).split("/")[0]}`;
  const nm = source.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = source.slice(nm + "node_modules/".length).split("/");
    const pkg = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    if (pkg === "next") return `next (${rest[2] === "compiled" ? `compiled/${rest[3]}` : rest.slice(1, 3).join("/")})`;
    return pkg;
  }
  const m = /(?:^|\/|\])(lib|app|proxy\.ts|instrumentation\.ts)(\/[^/]+)?/.exec(source);
  if (m) return `ours: ${m[1]}${m[2] ?? ""}`;
  if (source.includes("/.next/")) return ".next (unmapped)";
  return source;
}

/**
 * Self time of a profile: { total, idle, byGroup, byOwner, byFn } (Maps of ms), idle and (root)/(program)/
 * (garbage collector) included in the maps as they come. Options: after (RegExp), skipMs, windows
 * ([startUs, endUs][] on the profile's clock: only samples inside one count).
 */
export function summarize(profile, { after = null, skipMs = 0, windows = null } = {}) {
  const SKIP_US = skipMs * 1000;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const info = new Map();
  const infoOf = (id) => {
    if (!info.has(id)) {
      const loc = locate(nodes.get(id).callFrame);
      info.set(id, { ...loc, group: groupOf(loc.source, loc.name) });
    }
    return info.get(id);
  };
  const stackMatches = (id) => {
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const i = infoOf(cur);
      if (after.test(i.name) || after.test(i.source ?? "")) return true;
    }
    return false;
  };

  /** The group a sample is charged to: its own frame's, or for Node's internals and V8's builtins the nearest caller's that is a package or ours. */
  const OWNERLESS = /^(node:|V8 builtins|turbopack:|\.next \(unmapped\))/;
  const ownerOf = (id) => {
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const g = infoOf(cur).group;
      if (!OWNERLESS.test(g)) return g;
    }
    return infoOf(id).group;
  };
  const byOwner = new Map();
  let started = !after;
  let startedAt = -1;
  let clock = 0;
  let at = profile.startTime;
  const byGroup = new Map();
  const byFn = new Map();
  let total = 0;
  let idle = 0;
  const { samples, timeDeltas } = profile;
  for (let k = 0; k < samples.length; k++) {
    const id = samples[k];
    clock += timeDeltas[k];
    at += timeDeltas[k];
    if (windows && !windows.some(([a, b]) => at >= a && at <= b)) continue;
    if (!started && stackMatches(id)) started = true;
    if (!started) continue;
    if (startedAt < 0) startedAt = clock;
    if (clock - startedAt < SKIP_US) continue;
    const ms = (timeDeltas[k + 1] ?? 0) / 1000;
    const i = infoOf(id);
    if (i.name === "(idle)") {
      idle += ms;
      continue;
    }
    total += ms;
    byGroup.set(i.group, (byGroup.get(i.group) ?? 0) + ms);
    const owner = ownerOf(id);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + ms);
    const key = `${i.name}  ${i.source ? `${i.source.replace(/^.*node_modules\//, "").replace(/^.*\[project\]\//, "")}:${i.line}` : ""}`;
    byFn.set(key, (byFn.get(key) ?? 0) + ms);
  }

  return { total, idle, byGroup, byOwner, byFn };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const argv = process.argv.slice(2);
  const file = argv.find((a, i) => !a.startsWith("--") && !argv[i - 1]?.startsWith("--"));
  const opt = (name, fallback) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  if (!file) {
    console.error("usage: cpuprofile-summary.mjs <file.cpuprofile> [--after <regex>] [--top 30]");
    process.exit(2);
  }
  const after = opt("after", null) ? new RegExp(opt("after", null)) : null;
  const TOP = Number(opt("top", "30"));
  const profile = JSON.parse(fs.readFileSync(file, "utf8"));

  const { total, idle, byGroup, byOwner, byFn } = summarize(profile, { after, skipMs: Number(opt("skip", "0")) });
  const SKIP_US = Number(opt("skip", "0")) * 1000;
  const pct = (ms) => `${((100 * ms) / total).toFixed(1)}%`.padStart(6);
  console.log(`${path.basename(file)}: ${total.toFixed(0)} ms busy, ${idle.toFixed(0)} ms idle${after ? ` (from ${SKIP_US / 1000} ms after the first stack matching ${after})` : ""}`);
  console.log("\nSelf time by package / group:");
  for (const [g, ms] of [...byGroup].sort((a, b) => b[1] - a[1])) console.log(`${pct(ms)} ${ms.toFixed(1).padStart(8)} ms  ${g}`);
  console.log("\nSelf time charged to the package that called Node's internals and V8's builtins:");
  for (const [g, ms] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${pct(ms)} ${ms.toFixed(1).padStart(8)} ms  ${g}`);
  console.log(`\nTop ${TOP} functions by self time:`);
  for (const [f, ms] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${pct(ms)} ${ms.toFixed(1).padStart(8)} ms  ${f}`);
}
