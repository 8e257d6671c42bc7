/** Types of bench/perf/cpuprofile-summary.mjs's `summarize` (self time of a V8 .cpuprofile, in ms). */
export interface ProfileSummary {
  total: number;
  idle: number;
  byGroup: Map<string, number>;
  byOwner: Map<string, number>;
  /** "<function>  <source>:<line>" → self ms. */
  byFn: Map<string, number>;
}
export function summarize(
  profile: unknown,
  options?: { after?: RegExp | null; skipMs?: number; windows?: [number, number][] | null },
): ProfileSummary;
