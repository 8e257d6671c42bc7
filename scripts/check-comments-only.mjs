// Proves a change touched comments only: each changed source file, printed by TypeScript without its
// comments, is the same at BASE and in the working tree (docs/issues.md #55, "no behaviour changes").
//   node scripts/check-comments-only.mjs [BASE]      (BASE defaults to main; exits 1 naming the files that differ)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import ts from "typescript";

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/**
 * A source text printed without comments, so that two texts differing only in comments and layout print alike.
 * @param {string} text @param {string} fileName (its extension picks the parser)
 */
export function withoutComments(text, fileName) {
  const kind = /\.(tsx|jsx)$/.test(fileName) ? ts.ScriptKind.TSX : /\.(js|mjs|cjs)$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  return ts.createPrinter({ removeComments: true }).printFile(source);
}

const base = process.argv[2] ?? "main";
const changed = execFileSync("git", ["diff", "--name-only", base, "--", "."], { encoding: "utf8" })
  .split("\n")
  .filter((f) => SOURCE.test(f) && fs.existsSync(f));
const differ = [];
for (const file of changed) {
  let before;
  try {
    before = execFileSync("git", ["show", `${base}:${file}`], { encoding: "utf8", maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    differ.push(`${file} (new)`);
    continue;
  }
  if (withoutComments(before, file) !== withoutComments(fs.readFileSync(file, "utf8"), file)) differ.push(file);
}
console.log(`${changed.length} changed source files, ${changed.length - differ.length} differ in comments only.`);
if (differ.length) {
  console.error(`Changed beyond comments:\n  ${differ.join("\n  ")}`);
  process.exit(1);
}
