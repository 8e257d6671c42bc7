import "server-only";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { getConfig } from "@/lib/server/config";
import { hstsHeader, inlineScriptHashes, pagePolicy } from "@/lib/server/security/csp";
import { COMMON_HEADERS } from "@/lib/server/security/headers";
import { htmlFileOf, isPrerendered } from "@/lib/server/security/static-pages";

/**
 * The prerendered landing page from memory for server.mjs's hot path (docs/performance.md "Landing page"), with
 * the headers and gzip Next would send (e2e/security.spec.ts compares). Only a plain GET/HEAD of exactly `/`.
 */

interface Landing {
  headers: Record<string, string>;
  body: Buffer;
  gzipped: Buffer;
}

/** Not in `.meta` (base-server.js, compression). */
const NEXT_PAGE_HEADERS: Record<string, string> = {
  "Cache-Control": "s-maxage=31536000",
  "Content-Type": "text/html; charset=utf-8",
  "x-nextjs-cache": "HIT",
};
const NEXT_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";
const ROUTER_HEADERS = ["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-action", "next-url"];

let cached: Landing | null | undefined;

function load(): Landing | null {
  const config = getConfig();
  if (!config.isProduction || !isPrerendered("/")) return null;
  const file = htmlFileOf("/");
  let body: Buffer;
  let meta: { status?: number; headers?: Record<string, string | string[]> };
  try {
    body = fs.readFileSync(file);
    meta = JSON.parse(fs.readFileSync(file.replace(/\.html$/, ".meta"), "utf8")) as typeof meta;
  } catch {
    return null;
  }
  if ((meta.status ?? 200) !== 200) return null;
  const headers: Record<string, string> = {};
  for (const { key, value } of COMMON_HEADERS) headers[key] = value;
  for (const [name, value] of Object.entries(meta.headers ?? {})) {
    if (name.toLowerCase() === "x-next-cache-tags") continue;
    headers[name] = Array.isArray(value) ? value.join(",") : value;
  }
  Object.assign(headers, NEXT_PAGE_HEADERS);
  // The hashes of this body's inline scripts, as proxy.ts allows them.
  headers["Content-Security-Policy"] = pagePolicy({ hashes: inlineScriptHashes(body.toString("utf8")) });
  const hsts = hstsHeader({ production: config.isProduction, appUrl: config.APP_URL });
  if (hsts) headers["Strict-Transport-Security"] = hsts;
  return { headers, body, gzipped: gzipSync(body) };
}

/** Null for a header not negotiated as Next would (left to Next). */
function encodingFor(accept: string | undefined): "gzip" | "identity" | null {
  if (accept === undefined || accept.trim() === "") return "identity";
  if (accept.includes(";")) return null;
  const names = accept.split(",").map((n) => n.trim().toLowerCase());
  if (names.includes("gzip") || names.includes("*")) return "gzip";
  return names.includes("deflate") ? null : "identity";
}

export function handleLanding(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.url !== "/" || (req.method !== "GET" && req.method !== "HEAD")) return false;
  for (const name of ROUTER_HEADERS) if (req.headers[name] !== undefined) return false;
  const encoding = encodingFor(req.headers["accept-encoding"] as string | undefined);
  if (encoding === null) return false;
  if (cached === undefined) cached = load();
  if (!cached) return false;
  const headers: Record<string, string> = { ...cached.headers, Vary: `${NEXT_VARY}, Accept-Encoding` };
  let body = cached.body;
  if (encoding === "gzip" && req.method === "GET") {
    body = cached.gzipped;
    headers["Content-Encoding"] = "gzip";
  }
  headers["Content-Length"] = String(body.length);
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}
