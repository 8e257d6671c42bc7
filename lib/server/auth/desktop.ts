import "server-only";
import { EncryptJWT, jwtDecrypt } from "jose";
import { getConfig } from "@/lib/server/config";
import { serializeCookie, secureCookies } from "@/lib/server/auth/cookies";
import { deriveAuthKey } from "@/lib/server/secret";

/**
 * The desktop app's sign-in (docs/product.md §2 /appsignup, §7): after Google sign-in started on /appsignup,
 * the browser is sent to DESKTOP_APP_REDIRECT_URL?idToken=<Google ID token>.
 *
 * The ID token exists only in the request that completes Google's callback. It crosses the one
 * redirect to /appsignup?handoff=1 in a cookie: encrypted (JWE, dir + A256GCM, key derived from the
 * sign-in secret), HttpOnly, path /appsignup, 2 minutes. It is never stored in the database and never
 * put in one of our own URLs (the deep link itself must carry it, docs/product.md §7).
 */

export const HANDOFF_MAX_AGE_S = 120;

export function handoffCookieName(): string {
  return `${secureCookies() ? "__Secure-" : ""}hush.desktop-handoff`;
}

/** The Set-Cookie value carrying `idToken` to /appsignup. */
export async function handoffCookie(idToken: string): Promise<string> {
  const sealed = await new EncryptJWT({ idt: idToken })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt()
    .setExpirationTime(`${HANDOFF_MAX_AGE_S}s`)
    .encrypt(deriveAuthKey("desktop-handoff"));
  return serializeCookie(handoffCookieName(), sealed, {
    httpOnly: true,
    sameSite: "lax",
    path: "/appsignup",
    secure: secureCookies(),
    maxAge: HANDOFF_MAX_AGE_S,
  });
}

/** The ID token sealed in a handoff cookie value, or null when absent, tampered with or expired. */
export async function openHandoff(value: string | undefined | null): Promise<string | null> {
  if (!value) return null;
  try {
    const { payload } = await jwtDecrypt(value, deriveAuthKey("desktop-handoff"), {
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: ["A256GCM"],
    });
    return typeof payload.idt === "string" ? payload.idt : null;
  } catch {
    return null;
  }
}

/** DESKTOP_APP_REDIRECT_URL with `idToken` added to its query (e.g. hush://auth?idToken=…). */
export function desktopDeepLink(idToken: string): string {
  const base = getConfig().DESKTOP_APP_REDIRECT_URL;
  const hashAt = base.indexOf("#");
  const [head, hash] = hashAt < 0 ? [base, ""] : [base.slice(0, hashAt), base.slice(hashAt)];
  return `${head}${head.includes("?") ? "&" : "?"}idToken=${encodeURIComponent(idToken)}${hash}`;
}
