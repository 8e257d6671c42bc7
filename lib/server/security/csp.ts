import { createHash } from "node:crypto";

/**
 * Content-Security-Policy of every response (ASVS 5.0 V3.4): scripts by nonce or prerendered hash, never
 * 'unsafe-inline'/'unsafe-eval' in production; style-src keeps 'unsafe-inline' for React's `style` attributes.
 */

export interface PagePolicyOptions {
  nonce?: string;
  hashes?: readonly string[];
  /** `next dev`: 'unsafe-inline' 'unsafe-eval' and ws: for hot reload. */
  development?: boolean;
}

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

export const API_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/** `sha256-<base64>` of each non-empty inline `<script>`, over its exact text as the browser hashes it. */
export function inlineScriptHashes(html: string): string[] {
  const out = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1] ?? "";
    const body = match[2] ?? "";
    if (/\bsrc\s*=/i.test(attributes) || body === "") continue;
    // JSON data blocks are not scripts.
    if (/\btype\s*=\s*["']?application\/(ld\+)?json/i.test(attributes)) continue;
    out.add(`sha256-${createHash("sha256").update(body, "utf8").digest("base64")}`);
  }
  return [...out];
}

export function hstsHeader(options: { production: boolean; appUrl: string }): string | null {
  return options.production && options.appUrl.startsWith("https://") ? "max-age=31536000; includeSubDomains" : null;
}
