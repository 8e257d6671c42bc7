import "server-only";
import { EncryptJWT, jwtDecrypt } from "jose";
import { getConfig } from "@/lib/server/config";
import { serializeCookie, secureCookies } from "@/lib/server/auth/cookies";
import { deriveAuthKey } from "@/lib/server/secret";

/**
 * The desktop app's sign-in (docs/product.md §2 /appsignup, §7): the Google ID token crosses one redirect to
 * /appsignup?handoff=1 in an encrypted (JWE) HttpOnly cookie of 2 minutes, never stored or put in our URLs.
 */

const HANDOFF_MAX_AGE_S = 120;

export function handoffCookieName(): string {
  return `${secureCookies() ? "__Secure-" : ""}hush.desktop-handoff`;
}

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

/** Null when absent, tampered with or expired. */
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

/** e.g. hush://auth?idToken=… */
export function desktopDeepLink(idToken: string): string {
  const base = getConfig().DESKTOP_APP_REDIRECT_URL;
  const hashAt = base.indexOf("#");
  const [head, hash] = hashAt < 0 ? [base, ""] : [base.slice(0, hashAt), base.slice(hashAt)];
  return `${head}${head.includes("?") ? "&" : "?"}idToken=${encodeURIComponent(idToken)}${hash}`;
}
