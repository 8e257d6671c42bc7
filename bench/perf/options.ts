/**
 * The value after `--name` on the command line (`--rounds 3`), or `fallback` when the option is absent: the
 * option parsing of bench/perf/run.ts, bench/perf/ladder.ts and bench/lean-light.ts.
 */
export function option(name: string, fallback: string, argv: readonly string[] = process.argv.slice(2)): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
}
