import path from "node:path";

/**
 * Next's floor for bench/perf/run.ts: a minimal Next app, built and started by the benchmark itself
 * (`next build bench/floor-app`, `next start bench/floor-app`), with the repository's own installed
 * next and react (resolved from the repository's node_modules). Not part of the product.
 */
const root = path.resolve(import.meta.dirname, "../..");

/** @type {import("next").NextConfig} */
const config = {
  turbopack: { root },
  outputFileTracingRoot: root,
  // As in the product's next.config.ts, so that the landing comparison weighs the pages, not ETags.
  poweredByHeader: false,
  generateEtags: false,
};

export default config;
