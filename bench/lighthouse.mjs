#!/usr/bin/env node
/**
 * Lighthouse benchmark of the public pages (issue "Quality bars"): mobile form factor with Lighthouse's
 * default simulated throttling, in Debian's Chromium, against an already running production server.
 * Prints the four category scores per page (median of --runs), the main metrics, and every audit that
 * cost points.
 *
 *   node bench/lighthouse.mjs [--base http://127.0.0.1:3200] [--pages /,/pricing] [--runs 3]
 *
 * A page that answers 404 (e.g. /pricing before its issue lands) is reported as pending, not scored.
 * chrome-launcher comes with lighthouse (a dependency of it, not of the app).
 */
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const base = (args.base ?? "http://127.0.0.1:3200").replace(/\/+$/, "");
const pages = (args.pages ?? "/,/pricing").split(",");
const runs = Number(args.runs ?? 3);
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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
    }
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
} finally {
  await chrome.kill();
}
