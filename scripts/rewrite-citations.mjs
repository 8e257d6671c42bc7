#!/usr/bin/env node
/**
 * Rewrites "spec §N" and "issue N" into citations that resolve in the repository ("docs/product.md §N",
 * "docs/issues.md #N"); idempotent. `--check` changes nothing and exits 1 if anything would change.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const SECTION = "\u00a7";
const PRODUCT = "docs/product.md";
const ISSUES = "docs/issues.md";

export const SKIP = new Set([PRODUCT, ISSUES, "package-lock.json", "scripts/rewrite-citations.mjs", "tests/unit/citations.test.ts"]);
const BINARY = /\.(png|jpe?g|gif|webp|ico|woff2?|ttf|otf|pdf|gz|zip|wasm)$/i;

// Same line only.
const SPEC = new RegExp(`\\b[Ss]pec[ \\t]+${SECTION}[ \\t]?(\\d)`, "g");
// A list only after the plural: in "issue 12, 3 rounds" the 3 is not an issue.
const ISSUE = /\b[Ii]ssue[ \t]+#?(\d+)()\b/g;
const ISSUES_LIST = /\b[Ii]ssues[ \t]+#?(\d+)((?:(?:,[ \t]*|[ \t]+and[ \t]+|[ \t]+or[ \t]+|[ \t]*[–-][ \t]*)#?\d+)*)\b/g;
const BARE = new RegExp(`${SECTION}[ \\t]?(?=\\d)`, "g");
/** A section of an external document named earlier on the line ("RFC 9180 §5.1"). */
export function citesExternal(before) {
  const line = before.slice(before.lastIndexOf("\n") + 1);
  return /(?:SPEC\.md|RFC[ -]?\d{3,5}|MPL-2\.0)(?![^\n]*docs\/product\.md)[^\n]*$/.test(line);
}

export function knownIssues(root = ROOT) {
  const text = fs.readFileSync(path.join(root, ISSUES), "utf8");
  return new Set([...text.matchAll(/^## #(\d+) /gm)].map((m) => m[1]));
}

/** The rewritten text and its count of changes; only issue numbers in `issues` are rewritten. */
export function rewrite(text, issues = knownIssues()) {
  let count = 0;
  let out = text.replace(SPEC, (_m, n) => {
    count++;
    return `${PRODUCT} ${SECTION}${n}`;
  });
  const issue = (m, first, rest) => {
    const numbers = [first, ...[...rest.matchAll(/\d+/g)].map((x) => x[0])];
    if (!numbers.every((n) => issues.has(n))) return m;
    count++;
    return `${ISSUES} #${first}${rest.replace(/#?(\d+)/g, "#$1")}`;
  };
  out = out.replace(ISSUES_LIST, issue).replace(ISSUE, issue);
  let result = "";
  let last = 0;
  for (const m of out.matchAll(BARE)) {
    const i = m.index;
    const before = out.slice(Math.max(0, i - 200), i);
    if (before.includes(PRODUCT) || citesExternal(before)) continue;
    count++;
    result += out.slice(last, i) + `${PRODUCT} ${SECTION}`;
    last = i + m[0].length;
  }
  out = result + out.slice(last);
  return { text: out, count };
}

export function trackedFiles(root = ROOT) {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
  return files.filter((f) => {
    if (SKIP.has(f) || BINARY.test(f)) return false;
    const full = path.join(root, f);
    if (!fs.existsSync(full) || !fs.statSync(full).isFile()) return false;
    const head = fs.readFileSync(full).subarray(0, 8000);
    return !head.includes(0);
  });
}

function main() {
  const check = process.argv.includes("--check");
  const issues = knownIssues();
  let total = 0;
  for (const f of trackedFiles()) {
    const full = path.join(ROOT, f);
    const before = fs.readFileSync(full, "utf8");
    const { text, count } = rewrite(before, issues);
    if (text === before) continue;
    total += count;
    console.log(`${String(count).padStart(4)}  ${f}`);
    if (!check) fs.writeFileSync(full, text);
  }
  console.log(`${total} citation(s) ${check ? "would be " : ""}rewritten`);
  if (check && total > 0) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) main();
