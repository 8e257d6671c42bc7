#!/usr/bin/env node
/**
 * Lighthouse benchmark of the public pages (issue "Quality bars"): mobile form factor with Lighthouse's
 * default simulated throttling, in Debian's Chromium, against an already running production server.
 * Prints the four category scores per page (median of --runs), the main metrics (and each run's), every
 * audit that cost points, and (docs/issues.md #12) the diagnostics that explain the performance score, from the
 * median run: the LCP element and its phases, layout shifts, long tasks, main-thread work by category,
 * script boot-up time per file and unused JavaScript. --diag 0 leaves the diagnostics out; --save <dir>
 * writes each run's full report (JSON, for the Lighthouse viewer).
 *
 *   node bench/lighthouse.mjs [--base http://127.0.0.1:3200] [--pages /,/pricing] [--runs 3] [--diag 0] [--save /tmp/lhr]
 *
 * A page that answers 404 (e.g. /pricing before its issue lands) is reported as pending, not scored.
 * chrome-launcher comes with lighthouse (a dependency of it, not of the app).
 */
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { mkdirSync, writeFileSync } from "node:fs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const base = (args.base ?? "http://127.0.0.1:3200").replace(/\/+$/, "");
const pages = (args.pages ?? "/,/pricing").split(",");
const runs = Number(args.runs ?? 3);
const diag = args.diag !== "0";
const saveDir = args.save;
const categories = ["performance", "accessibility", "best-practices", "seo"];
const metrics = [
  ["first-contentful-paint", "FCP"],
  ["largest-contentful-paint", "LCP"],
  ["total-blocking-time", "TBT"],
  ["cumulative-layout-shift", "CLS"],
  ["speed-index", "SI"],
];

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  chromeFlags: [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

/** The run whose performance score is the median one (its diagnostics explain the median). */
function medianRun(results) {
  const sorted = [...results].sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0));
  return sorted[Math.floor(sorted.length / 2)];
}

/** The diagnostics of one run that say where the performance points went (docs/issues.md #12). */
function printDiagnostics(lhr) {
  const a = lhr.audits;
  const ms = (v) => `${Math.round(v)} ms`;
  const short = (url) => String(url ?? "").replace(base, "").replace(/^.*\/_next\/static\//, "_next/");
  console.log("  diagnostics of the median run:");
  const lcpItems = a["largest-contentful-paint-element"]?.details?.items ?? [];
  const el = lcpItems[0]?.items?.[0]?.node;
  if (el) console.log(`    LCP element: ${el.nodeLabel?.slice(0, 80)}  (${el.selector})`);
  const phases = lcpItems[1]?.items;
  if (phases) console.log(`    LCP phases: ${phases.map((p) => `${p.phase} ${ms(p.timing)}`).join(" · ")}`);
  const shifts = a["layout-shifts"]?.details?.items ?? [];
  for (const s of shifts.slice(0, 5)) {
    console.log(`    layout shift ${s.score.toFixed(3)}: ${s.node?.nodeLabel?.slice(0, 60) ?? "?"} (${s.node?.selector ?? ""})`);
  }
  const tasks = (a["long-tasks"]?.details?.items ?? []).slice(0, 8);
  if (tasks.length) console.log(`    long tasks (simulated): ${tasks.map((t) => `${ms(t.duration)} @${ms(t.startTime)} ${short(t.url)}`).join(" · ")}`);
  const work = (a["mainthread-work-breakdown"]?.details?.items ?? []).slice(0, 6);
  console.log(`    main thread ${a["mainthread-work-breakdown"]?.displayValue ?? ""}: ${work.map((w) => `${w.groupLabel ?? w.group} ${ms(w.duration)}`).join(" · ")}`);
  const boot = (a["bootup-time"]?.details?.items ?? []).slice(0, 8);
  console.log("    script boot-up (total / evaluation / parse+compile):");
  for (const b of boot) console.log(`      ${ms(b.total).padStart(7)} ${ms(b.scripting).padStart(7)} ${ms(b.scriptParseCompile).padStart(7)}  ${short(b.url)}`);
  const unused = a["unused-javascript"]?.details?.items ?? [];
  if (unused.length)
    console.log(`    unused JS: ${unused.map((u) => `${short(u.url)} ${Math.round(u.wastedBytes / 1024)}/${Math.round(u.totalBytes / 1024)} KB`).join(" · ")}`);
  const reqs = (a["network-requests"]?.details?.items ?? []).filter((r) => r.resourceType === "Script" || r.resourceType === "Fetch");
  console.log(`    scripts and fetches: ${reqs.length} (${reqs.map((r) => `${short(r.url)} ${Math.round((r.transferSize ?? 0) / 1024)} KB`).join(", ")})`);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** --json <file>: per page the median performance score and each run's, for bench/all-goals.mjs. */
const summary = [];
try {
  for (const path of pages) {
    const url = base + path;
    const status = (await fetch(url, { redirect: "manual" })).status;
    if (status !== 200) {
      console.log(`\n${path}: pending (the server answers ${status})`);
      continue;
    }
    const results = [];
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: categories,
        formFactor: "mobile",
        screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
        throttlingMethod: "simulate",
      });
      results.push(result.lhr);
      if (saveDir) {
        mkdirSync(saveDir, { recursive: true });
        writeFileSync(`${saveDir}/${path.replace(/\W+/g, "_") || "_"}-${i + 1}.json`, JSON.stringify(result.lhr));
      }
    }
    const perf = results.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100));
    summary.push({ path, performance: median(perf), runs: perf });
    console.log(`\n${path}  (mobile, simulated throttling, median of ${runs} runs)`);
    for (const c of categories) {
      const scores = results.map((r) => Math.round((r.categories[c]?.score ?? 0) * 100));
      console.log(`  ${c.padEnd(15)} ${String(median(scores)).padStart(3)}   runs: ${scores.join(", ")}`);
    }
    const fmt = (id, v) => (id === "cumulative-layout-shift" ? v.toFixed(3) : `${Math.round(v)} ms`);
    console.log(
      "  median metrics " +
        metrics.map(([id, label]) => `${label} ${fmt(id, median(results.map((r) => r.audits[id]?.numericValue ?? NaN)))}`).join(" · "),
    );
    console.log(
      "  each run       " +
        results
          .map((r) => metrics.slice(0, 4).map(([id, label]) => `${label} ${fmt(id, r.audits[id]?.numericValue ?? NaN)}`).join(" "))
          .join("  |  "),
    );
    if (diag) printDiagnostics(medianRun(results));
    const last = results[results.length - 1];
    console.log("  points lost in the last run:");
    for (const c of categories) {
      const lost = last.categories[c].auditRefs
        .filter((ref) => ref.weight > 0)
        .map((ref) => last.audits[ref.id])
        .filter((a) => a.score !== null && a.score < 1);
      for (const a of lost) console.log(`  - ${c}: ${a.id} (score ${a.score}) ${a.displayValue ?? ""}`);
    }
  }
  if (args.json) writeFileSync(args.json, JSON.stringify(summary));
} finally {
  await chrome.kill();
}
