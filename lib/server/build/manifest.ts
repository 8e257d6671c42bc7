import fs from "node:fs";
import path from "node:path";
import { sri384 } from "@/lib/server/security/sri";

/**
 * The build manifest served at `/.well-known/hush/manifest.json` (docs/verify.md): the
 * SHA-384 of every file under `/_next/static`, and of Pyodide's files under `/pyodide/` (docs/issues.md #51: the
 * Python engine is served from Hush's origin; scripts/copy-pyodide.mjs puts them in `public/` beside the build),
 * with the commit the build was made from. It holds no time or path of the machine, so two builds of one commit
 * write the same bytes.
 */

/** The URL folders whose files the manifest lists. */
const LISTED_PREFIXES = ["/_next/static/", "/pyodide/"] as const;

/** Where the manifest is served, and where the build writes it (under `public/`). */
export const MANIFEST_URL_PATH = "/.well-known/hush/manifest.json";
export const MANIFEST_FORMAT = "hush-build-manifest/1";

export interface BuildManifest {
  format: typeof MANIFEST_FORMAT;
  /** 40 hex digits, or "unknown" for a build outside git without HUSH_SOURCE_COMMIT. */
  commit: string;
  algorithm: "sha384";
  /** URL path (`/_next/static/...`, `/pyodide/<version>/...`) → `sha384-<base64>`, sorted by path. */
  files: Record<string, string>;
}

function walk(dir: string, prefix: string, out: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(path.join(dir, entry.name), rel, out);
    else if (entry.isFile()) out.push(rel);
  }
}

/**
 * The manifest of the build in `distDir` (its `static/` folder), with the Pyodide files of `public/pyodide/`
 * beside it when they are there. Throws when the static folder is missing.
 */
export function manifestOfBuild(distDir: string, commit: string): BuildManifest {
  const root = path.join(distDir, "static");
  const pyodide = path.join(distDir, "..", "public", "pyodide");
  const entries: [string, string][] = [];
  const names: string[] = [];
  walk(root, "", names);
  for (const name of names) entries.push([`/_next/static/${name}`, path.join(root, name)]);
  if (fs.existsSync(pyodide)) {
    const copied: string[] = [];
    walk(pyodide, "", copied);
    for (const name of copied) entries.push([`/pyodide/${name}`, path.join(pyodide, name)]);
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const files: Record<string, string> = {};
  for (const [url, file] of entries) files[url] = sri384(fs.readFileSync(file));
  return { format: MANIFEST_FORMAT, commit, algorithm: "sha384", files };
}

/** The manifest's bytes: JSON, two-space indented, one trailing newline. */
export function serializeManifest(manifest: BuildManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A parsed manifest, or an Error saying what is wrong with `value`. */
export function parseManifest(value: unknown): BuildManifest | Error {
  if (typeof value !== "object" || value === null) return new Error("not a JSON object");
  const m = value as Partial<BuildManifest>;
  if (m.format !== MANIFEST_FORMAT) return new Error(`format is not ${MANIFEST_FORMAT}`);
  if (typeof m.commit !== "string") return new Error("no commit");
  if (m.algorithm !== "sha384") return new Error("algorithm is not sha384");
  if (typeof m.files !== "object" || m.files === null) return new Error("no files");
  for (const [file, hash] of Object.entries(m.files)) {
    if (!LISTED_PREFIXES.some((p) => file.startsWith(p)) || file.includes("..") || typeof hash !== "string" || !/^sha384-[A-Za-z0-9+/]{64}$/.test(hash)) {
      return new Error(`bad entry ${file}`);
    }
  }
  return m as BuildManifest;
}

/** One difference between two manifests' files: `expected` or `actual` undefined when absent. */
export interface FileDifference {
  file: string;
  expected?: string;
  actual?: string;
}

/** Every file whose hash differs, or that only one of the two manifests lists, sorted by path. */
export function compareManifests(expected: BuildManifest, actual: BuildManifest): FileDifference[] {
  const out: FileDifference[] = [];
  const names = new Set([...Object.keys(expected.files), ...Object.keys(actual.files)]);
  for (const file of [...names].sort()) {
    const a = expected.files[file];
    const b = actual.files[file];
    if (a !== b) out.push({ file, expected: a, actual: b });
  }
  return out;
}
