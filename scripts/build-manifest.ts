/**
 * After `next build` (docs/verify.md): puts the final chunk loader and missing `integrity` attributes into the
 * prerendered HTML (also the standalone copy), and writes the build manifest to public/.well-known/hush/manifest.json.
 *   tsx scripts/build-manifest.ts [--dist .next] [--out public/.well-known/hush/manifest.json]
 */
import fs from "node:fs";
import path from "node:path";
import { manifestOfBuild, serializeManifest, MANIFEST_URL_PATH } from "../lib/server/build/manifest";
import { sourceCommit } from "../lib/server/build/source-commit";
import { chunkLoaderOfBuild, LOADER_TAG } from "../lib/server/security/chunk-loader";
import { addIntegrity, integrityLookup } from "../lib/server/security/sri";

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

function htmlFiles(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) htmlFiles(full, out);
    else if (entry.name.endsWith(".html")) out.push(full);
  }
  return out;
}

const dist = path.resolve(option("--dist", ".next"));
const out = path.resolve(option("--out", path.join("public", MANIFEST_URL_PATH)));
if (!fs.existsSync(path.join(dist, "static"))) {
  console.error(`No build in ${dist} (run next build first).`);
  process.exit(1);
}

const lookup = integrityLookup(dist);
const loader = chunkLoaderOfBuild(dist);
let changed = 0;
const pages = [...htmlFiles(path.join(dist, "server", "app")), ...htmlFiles(path.join(dist, "standalone", path.basename(dist), "server", "app"))];
for (const file of pages) {
  const html = fs.readFileSync(file, "utf8");
  const next = addIntegrity(loader ? html.replace(LOADER_TAG, () => `<script>${loader}</script>`) : html, lookup);
  if (next !== html) {
    // Keep the mtime: lib/server/security/static-pages.ts caches by it.
    const { atime, mtime } = fs.statSync(file);
    fs.writeFileSync(file, next);
    fs.utimesSync(file, atime, mtime);
    changed++;
  }
}

const manifest = manifestOfBuild(dist, sourceCommit());
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, serializeManifest(manifest));
console.log(
  `Build manifest: ${Object.keys(manifest.files).length} files, commit ${manifest.commit} -> ${path.relative(process.cwd(), out)}; ` +
    `integrity added to ${changed} of ${pages.length} prerendered pages.`,
);
