import "server-only";
import { getConfig } from "@/lib/server/config";

/** The session cookie: HttpOnly, SameSite=Lax, Path=/; Secure and `__Secure-` prefixed when APP_URL is https. */

export interface CookieOptions {
  httpOnly: boolean;
  sameSite: "lax" | "strict" | "none";
  path: string;
  secure: boolean;
  expires?: Date;
  maxAge?: number;
}

export function secureCookies(): boolean {
  return new URL(getConfig().APP_URL).protocol === "https:";
}

export function sessionCookieName(): string {
  return `${secureCookies() ? "__Secure-" : ""}next-auth.session-token`;
}

export function sessionCookieOptions(): CookieOptions {
  return { httpOnly: true, sameSite: "lax", path: "/", secure: secureCookies() };
}

/** Malformed percent-encoding counts as absent. */
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

/** First occurrence wins; values percent-decoded when valid. */
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

/** Where a sign-in started: /signup or /appsignup. */
export function callbackUrlCookieName(): string {
  return `${secureCookies() ? "__Secure-" : ""}next-auth.callback-url`;
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`];
  if (options.expires) parts.push(`Expires=${options.expires.toUTCString()}`);
  if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAge)}`);
  if (options.httpOnly) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  parts.push(`SameSite=${options.sameSite[0]!.toUpperCase()}${options.sameSite.slice(1)}`);
  return parts.join("; ");
}

export function clearSessionCookie(): string {
  return serializeCookie(sessionCookieName(), "", { ...sessionCookieOptions(), expires: new Date(0), maxAge: 0 });
}
