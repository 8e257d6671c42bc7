import fs from "node:fs";
import path from "node:path";
import { inlineScriptHashes } from "@/lib/server/security/csp";

/**
 * The inline-script hashes of prerendered pages, read from the production build (`.next`), so that
 * static pages (/, /termsofservice, /contact, /privacy, ...) keep being served as built (fast,
 * cacheable) under a strict CSP without nonces (Next's CSP guide: nonces need per-request rendering).
 *
 * `.next/prerender-manifest.json` lists the prerendered routes; each one's HTML is
 * `.next/server/app/<route>.html`. A file is hashed once and again only when it changes (its mtime:
 * a revalidated page). Unknown paths render the prerendered not-found page, whose hashes are
 * returned by `notFoundPageHashes()`. In development (no manifest) nothing is prerendered: every
 * page gets a nonce.
 */

const DIST = path.join(process.cwd(), ".next");

let routes: Set<string> | null | undefined;
const cache = new Map<string, { mtimeMs: number; hashes: string[] }>();

function prerenderedRoutes(): Set<string> | null {
  if (routes !== undefined) return routes;
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(DIST, "prerender-manifest.json"), "utf8")) as {
      routes?: Record<string, unknown>;
    };
    routes = new Set(Object.keys(manifest.routes ?? {}));
  } catch {
    routes = null;
  }
  return routes;
}

function hashesOfFile(file: string): string[] | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs) return cached.hashes;
  const hashes = inlineScriptHashes(fs.readFileSync(file, "utf8"));
  cache.set(file, { mtimeMs: stat.mtimeMs, hashes });
  return hashes;
}

/** The prerendered HTML file of `route` in the build (its headers are in the same name with `.meta`). */
export function htmlFileOf(route: string): string {
  return path.join(DIST, "server", "app", `${route === "/" ? "/index" : route}.html`);
}

/** Hash sources of the prerendered page at `pathname`, or null when it is not prerendered. */
export function prerenderedPageHashes(pathname: string): string[] | null {
  const route = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const known = prerenderedRoutes();
  if (!known?.has(route)) return null;
  return hashesOfFile(htmlFileOf(route));
}

/** Whether the build prerendered `route` (false in development, where nothing is). */
export function isPrerendered(route: string): boolean {
  return prerenderedRoutes()?.has(route) ?? false;
}

/**
 * Hash sources allowed on pages rendered per request besides their nonce: the inline scripts of the
 * prerendered not-found page (unknown paths are answered with it) and of the prerendered home page
 * (the root layout's own inline scripts, e.g. a theme script, whose text is the same on every page).
 * All are fixed texts of this build.
 */
export function buildPageHashes(): string[] {
  const out = new Set<string>();
  for (const route of ["/_global-not-found", "/_not-found", "/"]) for (const h of hashesOfFile(htmlFileOf(route)) ?? []) out.add(h);
  return [...out];
}
