// The share of comments in product code (docs/quality.md "Comments"): characters inside comments over all
// characters of the source files under app, components, lib, dev, scripts and server.mjs.
//   node scripts/comment-share.mjs [--max PERCENT]     (exits 1 above PERCENT)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The folders and files whose comments are counted (docs/issues.md #55). */
export const PRODUCT_ROOTS = ["app", "components", "lib", "dev", "scripts", "server.mjs"];
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const GENERATED = /^lib\/server\/db\/generated\//;

/**
 * Every comment of a TypeScript or JavaScript source, in order.
 * @param {string} text the file's contents
 * @param {string} fileName its name (the extension picks TSX or TS parsing)
 * @returns {{ pos: number, end: number, text: string }[]} character offsets into `text`
 */
export function comments(text, fileName) {
  const kind = /\.(tsx|jsx)$/.test(fileName) ? ts.ScriptKind.TSX : /\.(js|mjs|cjs)$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map();
  const add = (ranges) => {
    for (const r of ranges ?? []) if (!found.has(r.pos)) found.set(r.pos, { pos: r.pos, end: r.end, text: text.slice(r.pos, r.end) });
  };
  const visit = (node) => {
    // JSX text is not trivia: "https://…" in it is not a comment.
    if (node.kind !== ts.SyntaxKind.JsxText) {
      add(ts.getLeadingCommentRanges(text, node.pos));
      add(ts.getTrailingCommentRanges(text, node.end));
    }
    if (node.kind === ts.SyntaxKind.JsxExpression && !node.expression) add(ts.getLeadingCommentRanges(text, node.pos + 1));
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  add(ts.getLeadingCommentRanges(text, 0));
  return [...found.values()].sort((a, b) => a.pos - b.pos);
}

/** The product's source files, repository-relative, as git lists them (tracked and untracked, not ignored). */
export function productFiles(root) {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", ...PRODUCT_ROOTS], { cwd: root, encoding: "utf8" });
  return listed.split("\n").filter((f) => SOURCE.test(f) && !GENERATED.test(f) && fs.existsSync(path.join(root, f)));
}

/**
 * Comment characters over all characters, per top-level folder and in all.
 * @returns {{ total: { comment: number, all: number }, byRoot: Record<string, { comment: number, all: number }> }}
 */
export function commentShare(root) {
  const byRoot = {};
  const total = { comment: 0, all: 0 };
  for (const file of productFiles(root)) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const comment = comments(text, file).reduce((sum, c) => sum + (c.end - c.pos), 0);
    const key = file.includes("/") ? file.split("/").slice(0, file.startsWith("lib/") ? 2 : 1).join("/") : file;
    byRoot[key] ??= { comment: 0, all: 0 };
    byRoot[key].comment += comment;
    byRoot[key].all += text.length;
    total.comment += comment;
    total.all += text.length;
  }
  return { total, byRoot };
}

const percent = ({ comment, all }) => (all ? (100 * comment) / all : 0);

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const { total, byRoot } = commentShare(root);
  for (const [key, share] of Object.entries(byRoot).sort()) console.log(`${key.padEnd(16)} ${percent(share).toFixed(1).padStart(5)}%  (${share.comment} of ${share.all} characters)`);
  console.log(`${"all".padEnd(16)} ${percent(total).toFixed(1).padStart(5)}%  (${total.comment} of ${total.all} characters)`);
  const at = process.argv.indexOf("--max");
  if (at > 0 && percent(total) > Number(process.argv[at + 1])) {
    console.error(`Comments are ${percent(total).toFixed(1)}% of product code, over the ${process.argv[at + 1]}% goal.`);
    process.exit(1);
  }
}
