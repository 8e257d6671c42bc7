// Relative: next.config.ts imports this file, and it is compiled without the "@/" alias.
import { API_POLICY, hstsHeader } from "./csp";

/**
 * Headers of every response, listed once for the two places that add them:
 * next.config.ts `headers()` for what Next serves, and lib/server/hot-path.ts for the routes server.mjs
 * answers itself.
 */
export const COMMON_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  // The microphone for Hush's own pages only: the composer's Dictate (docs/issues.md #52); never an embedded frame.
  { key: "Permissions-Policy", value: "camera=(), microphone=(self), geolocation=(), interest-cohort=()" },
];

/**
 * What proxy.ts adds to an API response: `Content-Security-Policy: default-src 'none'` (lib/server/security/csp.ts
 * API_POLICY) and, in production with an https APP_URL, Strict-Transport-Security.
 */
export function apiPolicyHeaders(options: { production: boolean; appUrl: string }): Record<string, string> {
  const out: Record<string, string> = { "Content-Security-Policy": API_POLICY };
  const hsts = hstsHeader(options);
  if (hsts) out["Strict-Transport-Security"] = hsts;
  return out;
}
