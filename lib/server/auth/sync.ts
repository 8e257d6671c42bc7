import "server-only";
import { SignJWT } from "jose";
import { getConfig } from "@/lib/server/config";
import type { AuthUser } from "@/lib/server/auth/types";
import { AppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";

/**
 * Auth-token sync (docs/product.md §7: "an auth-token sync call (POST with a bearer token, DELETE when there is
 * no token) goes to an optional configured URL"). The browser never calls the third party: it calls
 * our /api/auth/sync and the server forwards to AUTH_SYNC_URL.
 *
 * The bearer token sent is the same kind for every user, whatever the sign-in method (e-mail users
 * have no provider ID token, and Google's must not leave for third parties): a Hush-issued JWT,
 * HS256 with AUTH_SYNC_SECRET, valid 10 minutes, claims
 *   iss = APP_URL origin, aud = AUTH_SYNC_URL origin, sub = Hush user id, email, iat, exp.
 * The receiver verifies it with the shared secret. DELETE carries no token (there is none).
 */

export const SYNC_TOKEN_TTL_S = 10 * 60;

/**
 * The sync receiver failed or could not be reached: AppError "upstream:auth_sync" (502, "The auth-token
 * sync failed."); `detail` (a status or an error kind, never a token) goes to the log only.
 */
function syncFailed(detail: string): AppError {
  logger("auth-sync").error({ err: detail }, "sync failed");
  return new AppError("upstream:auth_sync", "The auth-token sync failed.");
}

/** The token sent to AUTH_SYNC_URL for `user`. Requires AUTH_SYNC_URL and AUTH_SYNC_SECRET. */
export async function syncTokenFor(user: Pick<AuthUser, "id" | "email">): Promise<string> {
  const config = getConfig();
  if (!config.AUTH_SYNC_URL || !config.AUTH_SYNC_SECRET) throw syncFailed("Auth-token sync is not configured.");
  return new SignJWT({ email: user.email })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(new URL(config.APP_URL).origin)
    .setAudience(new URL(config.AUTH_SYNC_URL).origin)
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime(`${SYNC_TOKEN_TTL_S}s`)
    .sign(new TextEncoder().encode(config.AUTH_SYNC_SECRET));
}

/**
 * Forward a sync: POST with `Authorization: Bearer <token>` for a signed-in user, DELETE for none.
 * @returns false when AUTH_SYNC_URL is not set (nothing to do).
 * @throws AppError "upstream:auth_sync" when the receiver answers non-2xx or cannot be reached (5 s timeout).
 */
export async function forwardAuthSync(user: Pick<AuthUser, "id" | "email"> | null): Promise<boolean> {
  const config = getConfig();
  if (!config.AUTH_SYNC_URL) return false;
  const init: RequestInit = user
    ? { method: "POST", headers: { Authorization: `Bearer ${await syncTokenFor(user)}` } }
    : { method: "DELETE" };
  let response: Response;
  try {
    response = await fetch(config.AUTH_SYNC_URL, { ...init, redirect: "manual", signal: AbortSignal.timeout(5000) });
  } catch (error) {
    throw syncFailed(`Auth-token sync failed (${error instanceof Error ? error.name : "unknown"}).`);
  }
  await response.body?.cancel();
  if (!response.ok) throw syncFailed(`Auth-token sync failed (status ${response.status}).`);
  return true;
}
