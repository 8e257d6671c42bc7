import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { namedPaths, pathExists, type NamedPath } from "../helpers/named-paths";

const ROOT = path.resolve(__dirname, "../..");
const SOURCE = /\.(ts|tsx|mts|mjs|cjs|js)$/;

/** README, docs/ and every tracked source file (docs/issues.md #55: "docs that stay true"). */
function texts(): string[] {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).split("\n");
  return files.filter(
    (f) => fs.existsSync(path.join(ROOT, f)) && (f === "README.md" || (f.startsWith("docs/") && f.endsWith(".md")) || (SOURCE.test(f) && !f.startsWith("lib/server/db/generated/"))),
  );
}

describe("paths named in docs, the README and code comments", () => {
  it("each exists in the repository", () => {
    const missing: NamedPath[] = [];
    for (const file of texts()) {
      for (const named of namedPaths(fs.readFileSync(path.join(ROOT, file), "utf8"), file)) {
        if (!pathExists(ROOT, named.path)) missing.push(named);
      }
    }
    expect(missing.map((m) => `${m.file}:${m.line} names ${m.path}`)).toEqual([]);
  });

  it("finds a removed path, in prose and in a comment, and not in code", () => {
    const doc = "See [the relay](lib/server/confidential/gone.ts) and `lib/server/config.ts`.";
    expect(namedPaths(doc, "docs/x.md").map((n) => n.path)).toEqual(["lib/server/confidential/gone.ts", "lib/server/config.ts"]);
    const code = 'const a = "lib/not/a/comment.ts";\n// as lib/server/gone/module does\n/* app/api/auth/[...nextauth]/route.ts */\n';
    const named = namedPaths(code, "lib/x.ts");
    expect(named.map((n) => [n.path, n.line])).toEqual([["lib/server/gone/module", 2], ["app/api/auth/[...nextauth]/route.ts", 3]]);
    expect(named.map((n) => pathExists(ROOT, n.path))).toEqual([false, true]);
    expect(pathExists(ROOT, "lib/server/config")).toBe(true);
    expect(pathExists(ROOT, "public/pyodide/")).toBe(true);
  });
});
