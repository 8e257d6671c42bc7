import "server-only";
import { AppError } from "@/lib/shared/errors";
import { getConfig } from "@/lib/server/config";
import type { AuthUser } from "@/lib/server/auth/types";
import { readCookie, sessionCookieName } from "@/lib/server/auth/cookies";
import { acceptSessionRow, findSessionUser, hashSessionToken, revokeUserSessions, type SessionRow, type StoredSessionUser } from "@/lib/server/db/sessions";
import { verifyGoogleIdToken } from "@/lib/server/auth/google-id-token";
import { findOrCreateGoogleUser } from "@/lib/server/auth/users";
import { logger } from "@/lib/server/log";

/**
 * Who is calling: the one entry point for every authenticated endpoint (docs/product.md §6).
 *
 * Credentials, exactly one kind per request:
 * - `Authorization: Bearer <Google ID token>` (desktop app). When an Authorization header is present
 *   it alone counts, the cookie is ignored: bearer requests carry no ambient credential, which is
 *   why `assertSameOrigin` exempts them.
 * - otherwise the session cookie, looked up in the database (so logging out or deleting the account
 *   ends it at once).
 *
 * Reads only the Request (no next/headers), so route handlers stay testable by calling them
 * directly. Pages use `getPageUser()`.
 */

export { revokeUserSessions };

/** Message of the 403 for a deleted account (docs/product.md §2 "Account Deleted"). */
export const ACCOUNT_DELETED_MESSAGE = "This account has been deleted.";
/** Message of the 401 without valid credentials. */
export const UNAUTHORIZED_MESSAGE = "Sign in to continue.";

/** 401 "unauthorized:session": no valid credentials. */
export const unauthorized = () => new AppError("unauthorized:session", UNAUTHORIZED_MESSAGE);
/** 403 "forbidden:account_deleted" (docs/product.md §2 "Account Deleted"). */
export const accountDeleted = () => new AppError("forbidden:account_deleted", ACCOUNT_DELETED_MESSAGE);
const crossSite = () => new AppError("forbidden:cross_site", "Cross-site request refused.");

function toAuthUser(user: StoredSessionUser, via: AuthUser["via"]): AuthUser {
  return { id: user.id, email: user.email, deleted: user.deletedAt !== null, via };
}

/** The bearer token of an Authorization header, "" when the header is not a Bearer one, null when absent. */
function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1]! : "";
}

/**
 * The caller, or null for missing or invalid credentials. Deleted accounts are returned with
 * `deleted: true`. A first-seen Google subject gets its user created (lib/server/auth/users.ts).
 * @throws AppError 503 when a bearer token cannot be checked because Google's keys are unreachable
 *   (so the desktop app does not take a network problem for a sign-out).
 */
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

/**
 * The caller, or an AppError: 401 without valid credentials, 403 "This account has been deleted."
 * for a deleted account unless `allowDeleted` (check_account_status, create_account, delete_user).
 * @throws AppError 401 | 403 | 503 (see getRequestUser).
 */
export async function requireUser(request: Request, opts: { allowDeleted?: boolean } = {}): Promise<AuthUser> {
  const user = await getRequestUser(request);
  if (!user) throw unauthorized();
  if (user.deleted && !opts.allowDeleted) throw accountDeleted();
  return user;
}

/**
 * requireUser and a read scoped to the user in one database round trip for cookie sessions:
 * `read` gets the session cookie's token hash, looks the session up in the same SQL statement as its
 * data, and returns the session row it found (or null) with the data. The session's rules and answers
 * are requireUser's (401, 403 deleted account, idle deadline moved forward); the data is returned only
 * when they pass. A request with an Authorization header, or without a usable cookie, goes through
 * requireUser and then `byUser`.
 * @throws AppError 401 | 403 | 503 as requireUser.
 */
export async function requireUserWith<T>(
  request: Request,
  read: (sessionTokenHash: string, now: Date) => Promise<{ session: SessionRow | null; value: T }>,
  byUser: (user: AuthUser) => Promise<T>,
): Promise<{ user: AuthUser; value: T }> {
  const token = request.headers.has("authorization") ? null : readCookie(request.headers.get("cookie"), sessionCookieName());
  // Tokens we issue are 43 characters; anything far longer is not ours (session-store.ts).
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

/**
 * CSRF guard for state-changing requests authenticated by cookie: refuses (AppError 403) a POST,
 * PUT, PATCH or DELETE whose Origin is not APP_URL's origin or one of EXTRA_ORIGINS (in development also the request's own
 * Host, so http://127.0.0.1:3000 works when APP_URL says localhost), or, without Origin, whose
 * Sec-Fetch-Site is cross-site or same-site. Requests without either header come from non-browser
 * clients and pass. Requests with an Authorization header are exempt: a browser never adds one to
 * a cross-site request on its own. SameSite=Lax cookies are the second line of defence.
 * @throws AppError 403.
 */
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
        // not a URL: refused below
      }
    }
    throw crossSite();
  }
  const site = request.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") throw crossSite();
}

/**
 * The signed-in user for a server component or server action (reads the session cookie through
 * next/headers), or null. Deleted accounts are returned with `deleted: true`.
 */
export async function getPageUser(): Promise<AuthUser | null> {
  const { cookies } = await import("next/headers");
  const token = (await cookies()).get(sessionCookieName())?.value;
  if (!token) return null;
  const user = await findSessionUser(token);
  return user ? toAuthUser(user, "session") : null;
}
