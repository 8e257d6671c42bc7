import { compareManifests, parseManifest, MANIFEST_URL_PATH, type BuildManifest } from "./manifest";
import { sri384 } from "@/lib/server/security/sri";

/**
 * `npm run verify -- <origin>` (docs/verify.md): compare a deployment's served manifest, pages' script and style
 * references with their integrity, and files' bytes with a local build of the same commit. Never throws for a
 * network error (it is a problem).
 */

/** docs/product.md §2. */
export const DEFAULT_PAGES = [
  "/",
  "/chat",
  "/pricing",
  "/signup",
  "/appsignup",
  "/contact",
  "/termsofservice",
  "/privacy",
  "/purchase-complete",
  "/purchase-failed",
];

export interface Problem {
  file: string;
  reason: string;
  local?: string;
  served?: string;
}

export interface VerifyReport {
  ok: boolean;
  problems: Problem[];
  log: string[];
}

export interface VerifyOptions {
  /** e.g. `https://chat.example.com`; no trailing path. */
  origin: string;
  local: BuildManifest;
  pages?: string[];
  /** Default true. */
  allFiles?: boolean;
  fetchImpl?: typeof fetch;
  /** Default 8. */
  concurrency?: number;
}

interface Reference {
  kind: "script" | "stylesheet" | "preload";
  url: string;
  integrity?: string;
}

const TAG = /<(script|link)\b[^>]*>/gi;
const attr = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`, "i").exec(tag)?.[1]?.replace(/&amp;/g, "&");

export function referencesOf(html: string): { references: Reference[]; inlineScripts: number } {
  const references: Reference[] = [];
  let inlineScripts = 0;
  for (const match of html.matchAll(TAG)) {
    const tag = match[0];
    if (match[1]!.toLowerCase() === "script") {
      const src = attr(tag, "src");
      if (src) references.push({ kind: "script", url: src, integrity: attr(tag, "integrity") });
      else if (!/\stype\s*=\s*"application\/(ld\+)?json"/i.test(tag)) inlineScripts++;
      continue;
    }
    const rel = attr(tag, "rel")?.toLowerCase() ?? "";
    const as = attr(tag, "as")?.toLowerCase() ?? "";
    const href = attr(tag, "href");
    if (!href) continue;
    if (rel === "stylesheet") references.push({ kind: "stylesheet", url: href, integrity: attr(tag, "integrity") });
    else if (rel === "modulepreload" || (rel === "preload" && (as === "script" || as === "style"))) {
      references.push({ kind: "preload", url: href, integrity: attr(tag, "integrity") });
    }
  }
  return { references, inlineScripts };
}

async function download(fetchImpl: typeof fetch, url: string): Promise<{ status: number; bytes: Uint8Array } | Error> {
  try {
    const response = await fetchImpl(url, { redirect: "manual", headers: { "Cache-Control": "no-cache" } });
    return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

export async function verifyDeployment(options: VerifyOptions): Promise<VerifyReport> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const origin = new URL(options.origin).origin;
  const { local } = options;
  const problems: Problem[] = [];
  const log: string[] = [];
  log.push(`Verifying ${origin} against the local build of commit ${local.commit} (${Object.keys(local.files).length} files).`);

  const manifestResponse = await download(fetchImpl, origin + MANIFEST_URL_PATH);
  if (manifestResponse instanceof Error || manifestResponse.status !== 200) {
    problems.push({
      file: MANIFEST_URL_PATH,
      reason: manifestResponse instanceof Error ? `unreachable: ${manifestResponse.message}` : `status ${manifestResponse.status}`,
    });
  } else {
    let parsed: BuildManifest | Error;
    try {
      parsed = parseManifest(JSON.parse(new TextDecoder().decode(manifestResponse.bytes)));
    } catch {
      parsed = new Error("not JSON");
    }
    if (parsed instanceof Error) {
      problems.push({ file: MANIFEST_URL_PATH, reason: `unreadable: ${parsed.message}` });
    } else {
      if (parsed.commit !== local.commit) {
        problems.push({ file: MANIFEST_URL_PATH, reason: `commit differs: local ${local.commit}, served ${parsed.commit} (build the served commit to compare)` });
      }
      for (const d of compareManifests(local, parsed)) {
        problems.push({ file: d.file, reason: "manifest entry differs", local: d.expected ?? "(absent)", served: d.actual ?? "(absent)" });
      }
      log.push(`Manifest: served commit ${parsed.commit}, ${Object.keys(parsed.files).length} files.`);
    }
  }

  const toFetch = new Set<string>();
  for (const page of options.pages ?? DEFAULT_PAGES) {
    const response = await download(fetchImpl, origin + page);
    if (response instanceof Error || response.status >= 400) {
      problems.push({ file: page, reason: response instanceof Error ? `page unreachable: ${response.message}` : `page status ${response.status}` });
      continue;
    }
    if (response.status >= 300) {
      log.push(`${page}: redirect (status ${response.status}), not checked.`);
      continue;
    }
    const { references, inlineScripts } = referencesOf(new TextDecoder().decode(response.bytes));
    let scripts = 0;
    let stylesheets = 0;
    for (const ref of references) {
      if (ref.kind === "script") scripts++;
      if (ref.kind === "stylesheet") stylesheets++;
      const url = new URL(ref.url, origin + page);
      const where = `${page}: ${ref.kind} ${ref.url}`;
      if (url.origin !== origin || !url.pathname.startsWith("/_next/static/")) {
        problems.push({ file: where, reason: "not a file of this build (another origin or outside /_next/static/)" });
        continue;
      }
      const expected = local.files[url.pathname];
      if (!expected) {
        problems.push({ file: where, reason: "not in the local build" });
        continue;
      }
      if (ref.integrity !== expected) {
        problems.push({ file: where, reason: ref.integrity ? "integrity attribute differs" : "no integrity attribute", local: expected, served: ref.integrity ?? "(none)" });
      }
      toFetch.add(url.pathname);
    }
    log.push(`${page}: ${scripts} scripts, ${stylesheets} stylesheets, ${references.length - scripts - stylesheets} preloads; ${inlineScripts} inline scripts (not comparable: the server writes the HTML).`);
  }

  if (options.allFiles ?? true) for (const file of Object.keys(local.files)) toFetch.add(file);
  const queue = [...toFetch].sort();
  let matched = 0;
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const response = await download(fetchImpl, origin + file);
      const expected = local.files[file]!;
      if (response instanceof Error || response.status !== 200) {
        problems.push({ file, reason: response instanceof Error ? `unreachable: ${response.message}` : `status ${response.status}`, local: expected });
        continue;
      }
      const served = sri384(response.bytes);
      if (served === expected) matched++;
      else problems.push({ file, reason: "served bytes differ from the local build", local: expected, served });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  log.push(`Files: ${toFetch.size} fetched, ${matched} identical to the local build.`);
  problems.sort((a, b) => a.file.localeCompare(b.file));
  return { ok: problems.length === 0, problems, log };
}

export function formatReport(report: VerifyReport, commit: string): string[] {
  const lines = [...report.log];
  for (const p of report.problems) {
    lines.push(`MISMATCH ${p.file}: ${p.reason}`);
    if (p.local !== undefined) lines.push(`  local  ${p.local}`);
    if (p.served !== undefined) lines.push(`  served ${p.served}`);
  }
  lines.push(
    report.ok
      ? `VERDICT: OK. Every script and stylesheet checked is byte for byte the local build of commit ${commit}.`
      : `VERDICT: MISMATCH. ${report.problems.length} problem${report.problems.length === 1 ? "" : "s"}; the deployment does not serve the local build of commit ${commit}.`,
  );
  return lines;
}
