import { createHash } from "node:crypto";

/**
 * Content-Security-Policy of every response (ASVS 5.0 V3.4), built in one place and set by
 * proxy.ts. Pure: tests build policies directly.
 *
 * Pages:
 * - scripts only from this origin plus, for inline scripts, either this request's nonce (pages
 *   rendered per request: Next.js reads the nonce from the request's CSP header and puts it on its
 *   own scripts) or the SHA-256 of each inline script of the prerendered HTML (static pages stay
 *   static: lib/server/security/static-pages.ts hashes the build output). Pages rendered per request also
 *   allow the hashes of the prerendered home and not-found pages: those are fixed texts of this build
 *   (a layout's inline script such as a theme script, which has the same text on every page, runs
 *   on dynamic pages without a nonce, so the root layout never has to read headers() and turn every
 *   page dynamic). blob: for Web Workers, which run only scripts they fetched with Subresource Integrity, from
 *   Blobs (lib/server/security/chunk-loader.ts). Never 'unsafe-inline' or 'unsafe-eval' for scripts in production. 'wasm-unsafe-eval'
 *   lets the page compile WebAssembly only (the vault's Argon2id, hash-wasm): it allows no eval() of
 *   JavaScript and no inline script;
 * - style-src keeps 'unsafe-inline': React renders `style` attributes (e.g. the chat's textarea height,
 *   progress bars), which neither nonces nor hashes can allow (style-src-attr has no nonce), and
 *   styles cannot run script; stylesheets still come only from this origin;
 * - connect-src 'self': the browser talks to no one else (README "No third parties in the browser");
 * - form-action 'self': Stripe Checkout and the Customer Portal are opened with
 *   `window.location.assign(url)` from a JSON answer and Google sign-in by next-auth's fetch then a
 *   navigation, none by a form post, so no third-party form target is needed anywhere;
 * - object-src 'none', base-uri 'none', frame-ancestors 'none'.
 * API responses carry no active content: `default-src 'none'` with the same frame/base/form rules.
 */

export interface PagePolicyOptions {
  /** Base64 nonce of this response (pages rendered per request). */
  nonce?: string;
  /** `sha256-…` sources of allowed inline scripts (prerendered pages). */
  hashes?: readonly string[];
  /**
   * Development (`next dev`): 'unsafe-inline' 'unsafe-eval' instead of nonce and hashes (React's dev
   * tooling evaluates code, nothing is prerendered so no hash is known, and a theme script without a
   * nonce must still run); ws: for hot reload. Never in production.
   */
  development?: boolean;
}

/** The policy of an HTML page. */
export function pagePolicy({ nonce, hashes = [], development = false }: PagePolicyOptions): string {
  const scripts = development
    ? ["'self'", "'unsafe-inline'", "'unsafe-eval'"]
    : ["'self'", "blob:", "'wasm-unsafe-eval'", ...(nonce ? [`'nonce-${nonce}'`] : []), ...hashes.map((h) => `'${h}'`)];
  return [
    "default-src 'self'",
    `script-src ${scripts.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    "media-src 'none'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
  ].join("; ");
}

/** The policy of an API response (JSON, SSE, redirects): nothing may load or run. */
export const API_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/**
 * CSP hash sources (`sha256-<base64>`) of the inline scripts of an HTML document: every `<script>`
 * without `src` whose body is not empty, hashed over its exact text as the browser does.
 */
export function inlineScriptHashes(html: string): string[] {
  const out = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1] ?? "";
    const body = match[2] ?? "";
    if (/\bsrc\s*=/i.test(attributes) || body === "") continue;
    // JSON data blocks are not scripts; the browser does not run them.
    if (/\btype\s*=\s*["']?application\/(ld\+)?json/i.test(attributes)) continue;
    out.add(`sha256-${createHash("sha256").update(body, "utf8").digest("base64")}`);
  }
  return [...out];
}

/** Strict-Transport-Security for production with an https APP_URL; null otherwise. */
export function hstsHeader(options: { production: boolean; appUrl: string }): string | null {
  return options.production && options.appUrl.startsWith("https://") ? "max-age=31536000; includeSubDomains" : null;
}
