import { NextResponse, type NextRequest } from "next/server";
import { methodNotAllowed } from "@/lib/server/api/methods";
import { getConfig } from "@/lib/server/config";
import { API_POLICY, hstsHeader, newNonce, pagePolicy } from "@/lib/server/security/csp";
import { buildPageHashes, prerenderedPageHashes } from "@/lib/server/security/static-pages";

/**
 * Security headers of every page and API response (Next 16 runs proxy.ts on the Node.js
 * runtime before routing):
 * - Content-Security-Policy (lib/server/security/csp.ts): API routes get `default-src 'none'`; prerendered
 *   pages get the hashes of their own inline scripts (they stay static); every other page gets a
 *   fresh nonce, passed to Next in the request's CSP header (Next puts it on its scripts; a server
 *   component can read it from `x-nonce`) plus the hashes of the build's home and not-found pages
 *   (unknown paths are answered with the prerendered not-found page; layout scripts such as a theme
 *   script run without a nonce). In development: no nonce, see pagePolicy.
 * - Strict-Transport-Security in production with an https APP_URL.
 * - A method an API route does not answer: 405 with `Allow` naming its methods and `{ "error": ... }`
 *   (lib/server/api/methods.ts).
 * Authentication is not checked here: each route handler checks its own. The chat turns server.mjs
 * answers itself never reach this file: lib/server/hot-path.ts adds the same API headers.
 */
export function proxy(request: NextRequest): NextResponse {
  const config = getConfig();
  const { pathname } = request.nextUrl;
  let policy: string;
  let nonce: string | null = null;
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    policy = API_POLICY;
    const refused = methodNotAllowed(request.method, pathname);
    if (refused) {
      const response = NextResponse.json(
        { error: "Method not allowed." },
        { status: 405, headers: { Allow: refused.allow, "Cache-Control": "no-store", "Content-Security-Policy": policy } },
      );
      const hsts = hstsHeader({ production: config.isProduction, appUrl: config.APP_URL });
      if (hsts) response.headers.set("Strict-Transport-Security", hsts);
      return response;
    }
  } else {
    const development = !config.isProduction;
    const hashes = development ? null : prerenderedPageHashes(pathname);
    if (development) {
      policy = pagePolicy({ development });
    } else if (hashes) {
      policy = pagePolicy({ hashes });
    } else {
      nonce = newNonce();
      policy = pagePolicy({ nonce, hashes: buildPageHashes() });
    }
  }

  let response: NextResponse;
  if (nonce) {
    const headers = new Headers(request.headers);
    headers.set("x-nonce", nonce);
    headers.set("content-security-policy", policy);
    response = NextResponse.next({ request: { headers } });
  } else {
    response = NextResponse.next();
  }
  response.headers.set("Content-Security-Policy", policy);
  const hsts = hstsHeader({ production: config.isProduction, appUrl: config.APP_URL });
  if (hsts) response.headers.set("Strict-Transport-Security", hsts);
  return response;
}

export const config = {
  // Everything but build assets (hashed, immutable files that run nothing of their own).
  matcher: ["/((?!_next/static|_next/image).*)"],
};
