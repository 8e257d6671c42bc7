import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { citesExternal } from "../../scripts/rewrite-citations.mjs";

/**
 * Every citation in the repository resolves inside it (docs/issues.md #19): a section of docs/product.md
 * ("docs/product.md §N", and a bare "§M" that follows one in the same comment) or an issue section of
 * docs/issues.md ("docs/issues.md #N"). A leftover citation of the external specification or a plain
 * "issue N" fails: `npm run citations` (scripts/rewrite-citations.mjs) rewrites those.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const SECTION = "\u00a7";
const PRODUCT = "docs/product.md";
const ISSUES = "docs/issues.md";
/** Not scanned: the two targets, the lock file, the codemod and this test (they quote the old forms). */
const SKIP = new Set([PRODUCT, ISSUES, "package-lock.json", "scripts/rewrite-citations.mjs", "tests/unit/citations.test.ts"]);
const BINARY = /\.(png|jpe?g|gif|webp|ico|woff2?|ttf|otf|pdf|gz|zip|wasm)$/i;

const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");

/** Section numbers of docs/product.md: "## 7. The calls", "### 10.1 The vault". */
function productSections(): Set<string> {
  const found = [...read(PRODUCT).matchAll(/^#{2,3} (\d+(?:\.\d+)?)[. ]/gm)].map((m) => m[1]!);
  return new Set(found);
}

/** Issue numbers of docs/issues.md: "## #12 Performance". */
function issueSections(): Set<string> {
  return new Set([...read(ISSUES).matchAll(/^## #(\d+) /gm)].map((m) => m[1]!));
}

function trackedTextFiles(): string[] {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  return files.filter((f) => {
    if (SKIP.has(f) || BINARY.test(f)) return false;
    const full = path.join(ROOT, f);
    if (!fs.existsSync(full) || !fs.statSync(full).isFile()) return false;
    return !fs.readFileSync(full).subarray(0, 8000).includes(0);
  });
}

/** Problems in one file's text, each as "line: what". */
function citationProblems(text: string, sections: Set<string>, issues: Set<string>): string[] {
  const problems: string[] = [];
  const lineOf = (i: number) => text.slice(0, i).split("\n").length;
  for (const m of text.matchAll(new RegExp(`\\bspec[ \\t]*${SECTION}`, "gi"))) {
    problems.push(`${lineOf(m.index)}: "${m[0]}" cites the external specification; use ${PRODUCT} ${SECTION}N`);
  }
  for (const m of text.matchAll(/\bissues?[ \t]+#?\d+/gi)) {
    problems.push(`${lineOf(m.index)}: "${m[0]}" is not a repository citation; use ${ISSUES} #N`);
  }
  for (const m of text.matchAll(new RegExp(`${SECTION}[ \\t]?(\\d+(?:\\.\\d+)?)`, "g"))) {
    const n = m[1]!;
    // A section of an external document named just before on the line (EHBP SPEC.md, an RFC, MPL-2.0).
    if (citesExternal(text.slice(Math.max(0, m.index - 200), m.index))) continue;
    if (!sections.has(n)) problems.push(`${lineOf(m.index)}: ${SECTION}${n} is not a section of ${PRODUCT}`);
    const before = text.slice(Math.max(0, m.index - 200), m.index);
    if (!before.includes(PRODUCT)) problems.push(`${lineOf(m.index)}: ${SECTION}${n} without "${PRODUCT}" before it`);
  }
  const list = /docs\/issues\.md #(\d+)((?:(?:,[ \t]*|[ \t]+and[ \t]+|[ \t]+or[ \t]+|[ \t]*[–-][ \t]*)#\d+)*)/g;
  for (const m of text.matchAll(list)) {
    for (const n of [m[1]!, ...[...m[2]!.matchAll(/#(\d+)/g)].map((x) => x[1]!)]) {
      if (!issues.has(n)) problems.push(`${lineOf(m.index)}: #${n} is not a section of ${ISSUES}`);
    }
  }
  return problems;
}

describe("citations resolve inside the repository", () => {
  const sections = productSections();
  const issues = issueSections();

  it("docs/product.md keeps the specification's sections 1-9 and docs/issues.md lists issues", () => {
    for (let n = 1; n <= 9; n++) expect(sections.has(String(n)), `section ${n}`).toBe(true);
    expect(issues.size).toBeGreaterThan(5);
  });

  it("the checker catches each kind of broken citation", () => {
    const bad = [
      `see spec ${SECTION}7`,
      "since issue 9",
      `${PRODUCT} ${SECTION}42`,
      `a lone ${SECTION}3`,
      `${ISSUES} #1`,
      `${ISSUES} #8 and #99`,
    ];
    for (const text of bad) expect(citationProblems(text, sections, issues), text).not.toEqual([]);
    const good = `${PRODUCT} ${SECTION}2, ${SECTION}4 and ${SECTION}10.1; ${ISSUES} #8 and #12; bench/all-goals.mjs`;
    expect(citationProblems(good, sections, issues)).toEqual([]);
  });

  it("every tracked text file cites only sections and issues that exist", () => {
    const problems = trackedTextFiles().flatMap((f) => citationProblems(read(f), sections, issues).map((p) => `${f}:${p}`));
    expect(problems, "run `npm run citations`, or add the missing section").toEqual([]);
  });

  it("docs/product.md and docs/issues.md cite each other correctly", () => {
    for (const f of [PRODUCT, ISSUES]) {
      const own = citationProblems(read(f), sections, issues).filter((p) => !/not a repository citation|external specification|without/.test(p));
      expect(own, f).toEqual([]);
    }
  });
});
