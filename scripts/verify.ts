/**
 * Check that a running deployment serves the code of a local build (docs/verify.md). Exit 0 when everything matches.
 *   npm run verify -- https://chat.example.com [--dist .next] [--pages /,/chat] [--referenced-only]
 */
import fs from "node:fs";
import path from "node:path";
import { manifestOfBuild, parseManifest, MANIFEST_URL_PATH } from "../lib/server/build/manifest";
import { sourceCommit } from "../lib/server/build/source-commit";
import { DEFAULT_PAGES, formatReport, verifyDeployment } from "../lib/server/build/verify";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const origin = process.argv.slice(2).find((a) => /^https?:\/\//.test(a));
  if (!origin) {
    console.error("Usage: npm run verify -- <origin, e.g. https://chat.example.com> [--dist .next] [--pages /,/chat] [--referenced-only]");
    return 1;
  }
  const dist = path.resolve(option("--dist") ?? ".next");
  if (!fs.existsSync(path.join(dist, "static"))) {
    console.error(`No local build in ${dist}: run npm run build first.`);
    return 1;
  }
  // The local build's own manifest names its commit; else git now.
  let commit = sourceCommit();
  const written = path.join(dist, "..", "public", MANIFEST_URL_PATH);
  if (fs.existsSync(written)) {
    const parsed = parseManifest(JSON.parse(fs.readFileSync(written, "utf8")));
    if (!(parsed instanceof Error)) commit = parsed.commit;
  }
  const local = manifestOfBuild(dist, commit);
  const pages = option("--pages")?.split(",").map((p) => p.trim()).filter(Boolean) ?? DEFAULT_PAGES;
  const report = await verifyDeployment({ origin, local, pages, allFiles: !process.argv.includes("--referenced-only") });
  for (const line of formatReport(report, commit)) console.log(line);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
    process.exit(1);
  },
);
