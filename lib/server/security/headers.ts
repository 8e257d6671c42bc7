// Relative: next.config.ts compiles this file without the "@/" alias.
import { API_POLICY, hstsHeader } from "./csp";

/** Headers of every response: next.config.ts `headers()` and lib/server/hot-path.ts both add them. */
export const COMMON_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  // The microphone for Hush's own pages only (Dictate); never an embedded frame.
  { key: "Permissions-Policy", value: "camera=(), microphone=(self), geolocation=(), interest-cohort=()" },
];

/** `default-src 'none'` and, in production with an https APP_URL, HSTS. */
export function apiPolicyHeaders(options: { production: boolean; appUrl: string }): Record<string, string> {
  const out: Record<string, string> = { "Content-Security-Policy": API_POLICY };
  const hsts = hstsHeader(options);
  if (hsts) out["Strict-Transport-Security"] = hsts;
  return out;
}
