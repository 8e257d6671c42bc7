import fs from "node:fs";
import path from "node:path";
import { inlineScriptHashes } from "@/lib/server/security/csp";

/**
 * The inline-script hashes of prerendered pages from `.next`, so static pages stay static under a strict CSP
 * without nonces. A file is hashed again only when its mtime changes. In development nothing is prerendered.
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

/** Its headers are in the same name with `.meta`. */
export function htmlFileOf(route: string): string {
  return path.join(DIST, "server", "app", `${route === "/" ? "/index" : route}.html`);
}

/** Null when `pathname` is not prerendered. */
export function prerenderedPageHashes(pathname: string): string[] | null {
  const route = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const known = prerenderedRoutes();
  if (!known?.has(route)) return null;
  return hashesOfFile(htmlFileOf(route));
}

export function isPrerendered(route: string): boolean {
  return prerenderedRoutes()?.has(route) ?? false;
}

/** Hashes allowed on per-request pages besides their nonce: the prerendered not-found and home pages' scripts. */
export function buildPageHashes(): string[] {
  const out = new Set<string>();
  for (const route of ["/_global-not-found", "/_not-found", "/"]) for (const h of hashesOfFile(htmlFileOf(route)) ?? []) out.add(h);
  return [...out];
}
