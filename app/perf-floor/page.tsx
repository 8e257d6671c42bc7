import type { Metadata } from "next";

/** Not for people and not for search engines: kept out of the sitemap and marked noindex. */
export const metadata: Metadata = { title: "Floor", robots: { index: false, follow: false } };

/**
 * The build's trivial prerendered page: the floor that bench/perf/run.ts compares the landing page's
 * req/s with (issue 12). It shares only the root layout, so it costs what any static page must.
 */
export default function PerfFloorPage() {
  return <p>OK</p>;
}
