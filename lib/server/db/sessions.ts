import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { getConfig } from "@/lib/server/config";
import { getDb, getPool } from "@/lib/server/db/client";
import { Prisma } from "@/lib/server/db/generated/prisma/client";
import { securityEvent } from "@/lib/server/log";

/**
 * Database sessions (revocable: deleting the row ends the session at once). The cookie carries a
 * random 256-bit token; the database keeps only its SHA-256, so a copy of the database holds no
 * usable session. next-auth reaches these through lib/server/auth/adapter.ts; /appsignup's ID-token sign-in
 * and the test helpers call them directly.
 */

/**
 * Session lifetimes (ASVS 5.0 V7.3; lib/server/auth/README.md "Session lifetime"):
 * - idle: SESSION_IDLE_DAYS (7) without any authenticated request ends a session. The row's
 *   `expires` is the idle deadline; using the session moves it forward, at most once per
 *   SESSION_REFRESH_AFTER_S (a day), so a busy user costs one write a day;
 * - absolute: SESSION_MAX_AGE_DAYS (30) after the session's `createdAt` it ends whatever happens;
 *   no refresh ever moves `expires` past `createdAt + SESSION_MAX_AGE_DAYS`.
 * The session cookie is set to live until the absolute end; the database decides.
 */
export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
}

/** The configured lifetimes. */
export function sessionLifetimes(): SessionLifetimes {
  const config = getConfig();
  return { idleMs: config.SESSION_IDLE_DAYS * 86_400_000, absoluteMs: config.SESSION_MAX_AGE_DAYS * 86_400_000 };
}

/** next-auth's `session.maxAge`, in seconds: the idle timeout. */
export function sessionIdleSeconds(): number {
  return Math.floor(sessionLifetimes().idleMs / 1000);
}

/** How stale the idle deadline may get before a request moves it forward (next-auth's `updateAge`). */
export const SESSION_REFRESH_AFTER_S = 24 * 60 * 60;

/** The absolute end of a session created at `createdAt`. */
export function absoluteEnd(createdAt: Date): Date {
  return new Date(createdAt.getTime() + sessionLifetimes().absoluteMs);
}

/** The idle deadline of a session used at `now`: now + idle, never past the absolute end. */
export function idleDeadline(createdAt: Date, now = Date.now()): Date {
  return new Date(Math.min(now + sessionLifetimes().idleMs, absoluteEnd(createdAt).getTime()));
}

/** A fresh session token for the cookie (256 random bits, base64url). */
export function generateSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database stores for a session token. */
export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export interface StoredSessionUser {
  id: string;
  email: string | null;
  deletedAt: Date | null;
}

/**
 * Create a session row for `userId`.
 * @returns the cookie token and the cookie's expiry (the session's absolute end).
 */
export async function createSession(userId: string): Promise<{ token: string; expires: Date }> {
  const token = generateSessionToken();
  const createdAt = new Date();
  const db = await getDb();
  await db.session.create({
    data: { sessionToken: hashSessionToken(token), userId, createdAt, expires: idleDeadline(createdAt, createdAt.getTime()) },
  });
  return { token, expires: absoluteEnd(createdAt) };
}

/** True while a session with these times is live at `now` (both deadlines ahead). */
export function sessionLive(row: { createdAt: Date; expires: Date }, now = Date.now()): boolean {
  return row.expires.getTime() > now && absoluteEnd(row.createdAt).getTime() > now;
}

/**
 * sessionLive in SQL, for a statement that reads a session together with other data and must act only
 * for a live one (lib/server/db/chat-preconditions.ts counts the send in the same statement): a query of
 * the session whose token hashes to `sessionTokenHash` when it is live at `now` (both deadlines
 * ahead), with the columns acceptSessionRow needs: `id`, `user_id`, `expires`, `created_at`. The
 * caller then hands the row to acceptSessionRow, which moves the idle deadline forward.
 */
export function liveSessionSql(sessionTokenHash: string, now: Date): Prisma.Sql {
  const createdAfter = new Date(now.getTime() - sessionLifetimes().absoluteMs);
  return Prisma.sql`
    SELECT s.id, s.user_id, s.expires, s.created_at FROM sessions s
    WHERE s.session_token = ${sessionTokenHash}::text AND s.expires > ${now.toISOString()}::timestamptz
      AND s.created_at > ${createdAfter.toISOString()}::timestamptz`;
}

/**
 * The user of a live session, or null when the token is unknown, revoked, idle too long or past its
 * absolute end. Using a live session moves its idle deadline forward (at most once a day, never past
 * the absolute end). Deleted accounts are returned (the caller decides).
 */
export async function findSessionUser(token: string): Promise<StoredSessionUser | null> {
  // Tokens we issue are 43 characters; anything far longer is not ours (and not worth hashing).
  if (!token || token.length > 256) return null;
  // Straight through node-postgres: every signed-in request starts here, and Prisma's own work around
  // this one read was a visible part of a saved turn's CPU. Both timestamps are
  // timestamptz, which node-postgres reads with their zone.
  const pool = await getPool();
  const { rows } = await pool.query<{ id: string; expires: Date; created_at: Date; user_id: string; email: string | null; deleted_at: Date | null }>({
    // Prepared once per connection (named), as the hot statements are.
    name: "hush_session_user",
    text: `SELECT s.id, s.expires, s.created_at, u.id AS user_id, u.email, u.deleted_at
           FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.session_token = $1::text`,
    values: [hashSessionToken(token)],
  });
  const row = rows[0];
  return acceptSessionRow(
    row ? { id: row.id, expires: row.expires, createdAt: row.created_at, user: { id: row.user_id, email: row.email, deletedAt: row.deleted_at } } : null,
  );
}

/** A session row as read with its user (by findSessionUser, or by a statement that reads more, e.g. lib/server/db/history-json.ts). */
export interface SessionRow {
  id: string;
  expires: Date;
  createdAt: Date;
  user: StoredSessionUser;
}

/**
 * The rules of findSessionUser for a row read elsewhere: null when missing or not live; a live
 * session's idle deadline is moved forward (at most once a day, never past the absolute end).
 */
export async function acceptSessionRow(row: SessionRow | null, now = Date.now()): Promise<StoredSessionUser | null> {
  if (!row || !sessionLive(row, now)) return null;
  const next = idleDeadline(row.createdAt, now);
  if (next.getTime() - row.expires.getTime() >= SESSION_REFRESH_AFTER_S * 1000) {
    const db = await getDb();
    await db.session.updateMany({ where: { id: row.id, expires: row.expires }, data: { expires: next } });
  }
  return row.user;
}

/** Delete one session (sign-out). Unknown tokens are ignored. */
export async function deleteSession(token: string): Promise<void> {
  const db = await getDb();
  await db.session.deleteMany({ where: { sessionToken: hashSessionToken(token) } });
}

/**
 * Revoke every session of a user (account deletion): copied cookies stop working at once.
 * @returns how many sessions were deleted.
 */
export async function revokeUserSessions(userId: string): Promise<number> {
  const db = await getDb();
  const { count } = await db.session.deleteMany({ where: { userId } });
  securityEvent("auth.session_revoked", { userId, count });
  return count;
}
