import "server-only";
import { getConfig } from "@/lib/server/config";

/**
 * The session cookie, in one place: its name and attributes (used by next-auth's options, by sessions
 * created outside next-auth, by clearing on deletion) and the reading of a Cookie header.
 * HttpOnly, SameSite=Lax, Path=/; Secure exactly when APP_URL is https (production requires https,
 * lib/server/config.ts), under the `__Secure-` prefix then, as next-auth names it.
 */

export interface CookieOptions {
  httpOnly: boolean;
  sameSite: "lax" | "strict" | "none";
  path: string;
  secure: boolean;
  expires?: Date;
  maxAge?: number;
}

/** True when cookies must carry the Secure attribute (APP_URL is https). */
export function secureCookies(): boolean {
  return new URL(getConfig().APP_URL).protocol === "https:";
}

/** Name of the session cookie for the current APP_URL. */
export function sessionCookieName(): string {
  return `${secureCookies() ? "__Secure-" : ""}next-auth.session-token`;
}

/** Attributes of the session cookie (without its expiry). */
export function sessionCookieOptions(): CookieOptions {
  return { httpOnly: true, sameSite: "lax", path: "/", secure: secureCookies() };
}

/** Value of cookie `name` in a Cookie request header, or null. Malformed percent-encoding counts as absent. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return null;
}

/** Every cookie of a Cookie request header (first occurrence wins), values percent-decoded when valid. */
export function parseCookies(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      out[name] = value;
    }
  }
  return out;
}

/** Name of next-auth's callback-URL cookie (where a sign-in started: /signup or /appsignup). */
export function callbackUrlCookieName(): string {
  return `${secureCookies() ? "__Secure-" : ""}next-auth.callback-url`;
}

/** A Set-Cookie header value. Names and values are percent-encoded where needed. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`];
  if (options.expires) parts.push(`Expires=${options.expires.toUTCString()}`);
  if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAge)}`);
  if (options.httpOnly) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  parts.push(`SameSite=${options.sameSite[0]!.toUpperCase()}${options.sameSite.slice(1)}`);
  return parts.join("; ");
}

/** Set-Cookie value that makes the browser drop the session cookie. */
export function clearSessionCookie(): string {
  return serializeCookie(sessionCookieName(), "", { ...sessionCookieOptions(), expires: new Date(0), maxAge: 0 });
}
