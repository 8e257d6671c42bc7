#!/usr/bin/env node
/**
 * Copies the Python worker's Pyodide files to public/pyodide/<version>/ so they are served from Hush's origin, and
 * fails when a digest differs from lib/shared/code/pyodide-files.ts (`--write` rewrites that file).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(root, "package.json"));
const pkgDir = path.dirname(require.resolve("pyodide/package.json"));
const { version } = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"));
const FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const listing = path.join(root, "lib/shared/code/pyodide-files.ts");
const sri = (bytes) => `sha384-${createHash("sha384").update(bytes).digest("base64")}`;

const digests = Object.fromEntries(FILES.map((f) => [f, sri(fs.readFileSync(path.join(pkgDir, f)))]));

if (process.argv.includes("--write")) {
  const entries = FILES.map((f) => `  ${JSON.stringify(f)}: ${JSON.stringify(digests[f])},`).join("\n");
  fs.writeFileSync(
    listing,
    `/**
 * The Pyodide files the browser's Python worker loads (docs/issues.md #51 "Engine"), served from Hush's origin under
 * PYODIDE_URL_PATH (scripts/copy-pyodide.mjs copies them from the npm package) and fetched with these SHA-384
 * digests as their integrity. Written by \`node scripts/copy-pyodide.mjs --write\`; tests/unit/pyodide-files.test.ts
 * checks them against the installed package.
 */

/** The pinned pyodide package's version (package.json). */
export const PYODIDE_VERSION = ${JSON.stringify(version)};

/** Where the files are served: \`/pyodide/<version>/\`. */
export const PYODIDE_URL_PATH = \`/pyodide/\${PYODIDE_VERSION}/\`;

/** Each file's \`sha384-<base64>\`, by name. */
export const PYODIDE_FILES = {
${entries}
} as const satisfies Record<string, string>;

export type PyodideFile = keyof typeof PYODIDE_FILES;
`,
  );
  console.log(`copy-pyodide: wrote ${path.relative(root, listing)} for pyodide ${version}.`);
}

const listed = fs.readFileSync(listing, "utf8");
const stale = FILES.filter((f) => !listed.includes(`${JSON.stringify(f)}: ${JSON.stringify(digests[f])}`) || !listed.includes(`PYODIDE_VERSION = ${JSON.stringify(version)}`));
if (stale.length) {
  console.error(`copy-pyodide: ${path.relative(root, listing)} does not hold the digests of pyodide ${version} (${stale.join(", ")}): run node scripts/copy-pyodide.mjs --write.`);
  process.exit(1);
}
const out = path.join(root, "public", "pyodide", version);
fs.rmSync(path.join(root, "public", "pyodide"), { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
for (const f of FILES) fs.copyFileSync(path.join(pkgDir, f), path.join(out, f));
console.log(`copy-pyodide: pyodide ${version} (${FILES.length} files) -> ${path.relative(root, out)}/`);
