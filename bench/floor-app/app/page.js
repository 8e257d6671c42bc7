/**
 * A trivial prerendered page: the floor that bench/perf/run.ts compares the landing page's req/s and
 * CPU per request with (docs/performance.md). What any static Next page costs, and nothing more.
 */
export default function FloorPage() {
  return <p>OK</p>;
}
