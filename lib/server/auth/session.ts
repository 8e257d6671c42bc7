import "server-only";
import { AppError } from "@/lib/shared/errors";
import { getConfig } from "@/lib/server/config";
import type { AuthUser } from "@/lib/server/auth/types";
import { readCookie, sessionCookieName } from "@/lib/server/auth/cookies";
import { acceptSessionRow, findSessionUser, hashSessionToken, revokeUserSessions, type SessionRow, type StoredSessionUser } from "@/lib/server/db/sessions";
import { verifyGoogleIdToken } from "@/lib/server/auth/google-id-token";
import { findOrCreateGoogleUser } from "@/lib/server/auth/users";
import { logger } from "@/lib/server/log";

/** Who is calling (docs/product.md §6): a Google ID token as Bearer (the cookie is then ignored), or the session cookie. */

export { revokeUserSessions };

/** docs/product.md §2 "Account Deleted". */
const ACCOUNT_DELETED_MESSAGE = "This account has been deleted.";
const UNAUTHORIZED_MESSAGE = "Sign in to continue.";

export const unauthorized = () => new AppError("unauthorized:session", UNAUTHORIZED_MESSAGE);
export const accountDeleted = () => new AppError("forbidden:account_deleted", ACCOUNT_DELETED_MESSAGE);
const crossSite = () => new AppError("forbidden:cross_site", "Cross-site request refused.");

function toAuthUser(user: StoredSessionUser, via: AuthUser["via"]): AuthUser {
  return { id: user.id, email: user.email, deleted: user.deletedAt !== null, via };
}

function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1]! : "";
}

/** Null for missing or invalid credentials. @throws AppError 503 when Google's keys are unreachable. */
export async function getRequestUser(request: Request): Promise<AuthUser | null> {
  const bearer = bearerToken(request);
  if (bearer !== null) {
    if (!bearer) return null;
    let identity;
    try {
      identity = await verifyGoogleIdToken(bearer);
    } catch (error) {
      if (error instanceof AppError && error.code === "unavailable:identity_provider") {
        logger("auth").error({ err: error.message }, "identity provider unavailable");
        throw new AppError("unavailable:identity_provider", "Sign-in could not be checked right now. Please try again.");
      }
      return null;
    }
    return toAuthUser(await findOrCreateGoogleUser(identity), "bearer");
  }
  const token = readCookie(request.headers.get("cookie"), sessionCookieName());
  if (!token) return null;
  const user = await findSessionUser(token);
  return user ? toAuthUser(user, "session") : null;
}

/** @throws AppError 401, 403 for a deleted account unless `allowDeleted`, 503. */
export async function requireUser(request: Request, opts: { allowDeleted?: boolean } = {}): Promise<AuthUser> {
  const user = await getRequestUser(request);
  if (!user) throw unauthorized();
  if (user.deleted && !opts.allowDeleted) throw accountDeleted();
  return user;
}

/** requireUser plus a user-scoped read in one round trip: `read` returns the session row it found with the data. */
export async function requireUserWith<T>(
  request: Request,
  read: (sessionTokenHash: string, now: Date) => Promise<{ session: SessionRow | null; value: T }>,
  byUser: (user: AuthUser) => Promise<T>,
): Promise<{ user: AuthUser; value: T }> {
  const token = request.headers.has("authorization") ? null : readCookie(request.headers.get("cookie"), sessionCookieName());
  if (!token || token.length > 256) {
    const user = await requireUser(request);
    return { user, value: await byUser(user) };
  }
  const now = new Date();
  const { session, value } = await read(hashSessionToken(token), now);
  const stored = await acceptSessionRow(session, now.getTime());
  if (!stored) throw unauthorized();
  const user = toAuthUser(stored, "session");
  if (user.deleted) throw accountDeleted();
  return { user, value };
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** CSRF guard: refuses (403) a cookie-authenticated write from another origin; Authorization requests pass. */
export function assertSameOrigin(request: Request): void {
  if (!STATE_CHANGING.has(request.method.toUpperCase())) return;
  if (request.headers.has("authorization")) return;
  const config = getConfig();
  const origin = request.headers.get("origin");
  if (origin !== null) {
    if (origin === new URL(config.APP_URL).origin || config.EXTRA_ORIGINS.includes(origin)) return;
    if (!config.isProduction && origin !== "null") {
      try {
        if (new URL(origin).host === request.headers.get("host")) return;
      } catch {
      }
    }
    throw crossSite();
  }
  const site = request.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") throw crossSite();
}

/** For a server component or action, or null. */
export async function getPageUser(): Promise<AuthUser | null> {
  const { cookies } = await import("next/headers");
  const token = (await cookies()).get(sessionCookieName())?.value;
  if (!token) return null;
  const user = await findSessionUser(token);
  return user ? toAuthUser(user, "session") : null;
}
