import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
// @ts-expect-error: a plain ES module of the repository's scripts, typed by its JSDoc
import { comments } from "../../scripts/comment-share.mjs";

/** The top-level folders a repository path in prose starts with. */
const ROOTS = "app|components|lib|dev|scripts|tests|e2e|bench|docs|deploy|public|prisma|\\.ci";
// A segment: plain characters, a Next.js dynamic segment ([id], [...path]) or a route group ((site)).
const SEGMENT = String.raw`(?:[\w.@-]|\[[\w.]+\]|\([\w-]+\))+`;
const PATH = new RegExp(String.raw`(?<![\w./@\[-])((?:${ROOTS})(?:/${SEGMENT})+/?)(?![\w*<{$.@/-])`, "g");
const EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", ".md", "/index.ts"];

/** A path named in a text, with where it was named. */
export type NamedPath = { path: string; file: string; line: number };

/**
 * The repository paths named in a text: README and docs whole, code files in their comments only.
 * @param text the file's contents; @param file its repository-relative name
 */
export function namedPaths(text: string, file: string): NamedPath[] {
  const parts: { text: string; at: number }[] = file.endsWith(".md")
    ? [{ text, at: 0 }]
    : (comments(text, file) as { pos: number; text: string }[]).map((c) => ({ text: c.text, at: c.pos }));
  const found: NamedPath[] = [];
  for (const part of parts) {
    for (const match of part.text.matchAll(PATH)) {
      const named = (match[1] ?? "").replace(/[.,:;]+$/, "");
      const line = text.slice(0, part.at + (match.index ?? 0)).split("\n").length;
      found.push({ path: named, file, line });
    }
  }
  return found;
}

/** Whether a named path exists in the repository, as written, as a module without its extension, or as a
 * path git ignores (made by a build or a run: public/pyodide/, .next). */
export function pathExists(root: string, named: string): boolean {
  const bare = named.replace(/\/$/, "");
  if (EXTENSIONS.some((ext) => fs.existsSync(path.join(root, bare + ext)))) return true;
  try {
    // A folder pattern (public/pyodide/) matches only the name with its slash.
    return execFileSync("git", ["check-ignore", "--no-index", bare, `${bare}/`], { cwd: root, encoding: "utf8" }).trim() !== "";
  } catch {
    return false;
  }
}
