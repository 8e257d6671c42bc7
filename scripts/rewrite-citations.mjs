#!/usr/bin/env node
/**
 * Rewrites citations of documents kept outside the repository into ones that resolve inside it
 * (docs/issues.md #19):
 *
 *   "spec" + section sign + N   ->  "docs/product.md" + section sign + N   (docs/product.md, sections 1-10)
 *   "issue N", "Issue #N"       ->  "docs/issues.md #N"                    (docs/issues.md, "## #N";
 *                                                                         only numbers it has a section for)
 *   "issues N and M"            ->  "docs/issues.md #N and #M"
 *   a bare section sign + N with no "docs/product.md" in the 200 characters before it gets the prefix too
 *   (one after it in the same list, "docs/product.md §2, §4", is left as it is).
 *
 * Every tracked text file is rewritten in place except docs/product.md, docs/issues.md, package-lock.json
 * and this script and its test (tests/unit/citations.test.ts). Idempotent: a second run changes nothing.
 * Names such as `bench/all-goals.mjs` or `bench:all-goals` (no space) are not citations and stay.
 *
 *   node scripts/rewrite-citations.mjs            # rewrite, print a count per file and the total
 *   node scripts/rewrite-citations.mjs --check    # change nothing; exit 1 if anything would change
 *
 * `npm run citations` runs the first form. tests/unit/citations.test.ts checks the result resolves.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const SECTION = "\u00a7";
const PRODUCT = "docs/product.md";
const ISSUES = "docs/issues.md";

/** Files never rewritten: the targets themselves, the lock file, this script and its test. */
export const SKIP = new Set([PRODUCT, ISSUES, "package-lock.json", "scripts/rewrite-citations.mjs", "tests/unit/citations.test.ts"]);
const BINARY = /\.(png|jpe?g|gif|webp|ico|woff2?|ttf|otf|pdf|gz|zip|wasm)$/i;

// "spec §7", "Spec § 7", "spec  §2" (same line only).
const SPEC = new RegExp(`\\b[Ss]pec[ \\t]+${SECTION}[ \\t]?(\\d)`, "g");
// "issue 9", "Issue #12"; plural lists "issues 8 and 10", "issues 8–13", "issues 8, 9 and 10" (a list
// only after the plural: in "issue 12, 3 rounds" the 3 is not an issue).
const ISSUE = /\b[Ii]ssue[ \t]+#?(\d+)()\b/g;
const ISSUES_LIST = /\b[Ii]ssues[ \t]+#?(\d+)((?:(?:,[ \t]*|[ \t]+and[ \t]+|[ \t]+or[ \t]+|[ \t]*[–-][ \t]*)#?\d+)*)\b/g;
const BARE = new RegExp(`${SECTION}[ \\t]?(?=\\d)`, "g");
/**
 * A section of an external document, named earlier on the same line with nothing of ours in between:
 * "EHBP SPEC.md §4.1, §5.3", "RFC 9180 §5.1", "MPL-2.0 §3.3". Left as it is.
 */
export function citesExternal(before) {
  const line = before.slice(before.lastIndexOf("\n") + 1);
  return /(?:SPEC\.md|RFC[ -]?\d{3,5}|MPL-2\.0)(?![^\n]*docs\/product\.md)[^\n]*$/.test(line);
}

/** Issue numbers that have a section in docs/issues.md ("## #12 ..."). */
export function knownIssues(root = ROOT) {
  const text = fs.readFileSync(path.join(root, ISSUES), "utf8");
  return new Set([...text.matchAll(/^## #(\d+) /gm)].map((m) => m[1]));
}

/**
 * The rewritten text and the number of citations changed in it. Only issue numbers in `issues` are
 * rewritten: another project's "issue 61234" stays as it is (and tests/unit/citations.test.ts reports
 * it, for a person to reword or to add a section for).
 */
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
  // A bare section sign with no product citation just before it: give it the prefix.
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

/** Tracked text files to rewrite, relative to the repository root. */
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
