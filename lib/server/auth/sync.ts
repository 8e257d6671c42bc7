import "server-only";
import { SignJWT } from "jose";
import { getConfig } from "@/lib/server/config";
import type { AuthUser } from "@/lib/server/auth/types";
import { AppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";

/**
 * Auth-token sync (docs/product.md §7): /api/auth/sync forwards to AUTH_SYNC_URL with a Hush-issued JWT (HS256,
 * AUTH_SYNC_SECRET, 10 minutes; iss APP_URL origin, aud AUTH_SYNC_URL origin, sub, email). DELETE carries none.
 */

const SYNC_TOKEN_TTL_S = 10 * 60;

/** 502 "upstream:auth_sync"; `detail` (never a token) goes to the log only. */
function syncFailed(detail: string): AppError {
  logger("auth-sync").error({ err: detail }, "sync failed");
  return new AppError("upstream:auth_sync", "The auth-token sync failed.");
}

/** Requires AUTH_SYNC_URL and AUTH_SYNC_SECRET. */
async function syncTokenFor(user: Pick<AuthUser, "id" | "email">): Promise<string> {
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
 * POST with the token for a user, DELETE for none. @returns false when AUTH_SYNC_URL is not set.
 * @throws AppError "upstream:auth_sync" on a non-2xx answer or no answer within 5 s.
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
