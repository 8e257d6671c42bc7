import fs from "node:fs";
import path from "node:path";
import { sri384 } from "@/lib/server/security/sri";

/**
 * The build manifest at `/.well-known/hush/manifest.json` (docs/verify.md): the commit and the SHA-384 of every file
 * under `/_next/static` and `/pyodide/`. Machine-independent: two builds of one commit write the same bytes.
 */

const LISTED_PREFIXES = ["/_next/static/", "/pyodide/"] as const;

export const MANIFEST_URL_PATH = "/.well-known/hush/manifest.json";
const MANIFEST_FORMAT = "hush-build-manifest/1";

export interface BuildManifest {
  format: typeof MANIFEST_FORMAT;
  /** 40 hex digits, or "unknown" outside git without HUSH_SOURCE_COMMIT. */
  commit: string;
  algorithm: "sha384";
  /** URL path → `sha384-<base64>`, sorted by path. */
  files: Record<string, string>;
}

function walk(dir: string, prefix: string, out: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(path.join(dir, entry.name), rel, out);
    else if (entry.isFile()) out.push(rel);
  }
}

/** The manifest of `distDir` (with `public/pyodide/` when there). Throws when the static folder is missing. */
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

/** JSON, two-space indented, one trailing newline. */
export function serializeManifest(manifest: BuildManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

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

export interface FileDifference {
  file: string;
  expected?: string;
  actual?: string;
}

/** Sorted by path. */
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
