/**
 * bench/chat-page.mjs's command line: `--name value` pairs (see its header), and the constants derived from them.
 */
import path from "node:path";

/** Every `--name value` pair of the command line, as { name: value }. */
export const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
export const ROUNDS = Number(args.rounds ?? 3);
export const BASE_PORT = Number(args.port ?? 5650);
export const MESSAGES = Number(args.messages ?? 1000);
export const ANSWER_TOKENS = Number(args.tokens ?? 4000);
export const TOKENS_PER_DELTA = 4;
export const DELTA_MS = 20;
export const KEY_EVERY_MS = 120;
/** The builds measured, { name, dir }: the reference (with --ref-dir) first, then this tree (--dir, default "."). */
export const targets = [
  ...(args["ref-dir"] ? [{ name: "reference", dir: path.resolve(args["ref-dir"]) }] : []),
  { name: "this", dir: path.resolve(args.dir ?? ".") },
];
