import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { securityEvent } from "@/lib/log";

/**
 * Database sessions (revocable: deleting the row ends the session at once). The cookie carries a
 * random 256-bit token; the database keeps only its SHA-256, so a copy of the database holds no
 * usable session. next-auth reaches these through lib/auth/adapter.ts; /appsignup's ID-token sign-in
 * and the test helpers call them directly.
 */

/** Session lifetime: next-auth's default of 30 days, in seconds. */
export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

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

/** Create a session row for `userId`. @returns the cookie token and its expiry. */
export async function createSession(userId: string): Promise<{ token: string; expires: Date }> {
  const token = generateSessionToken();
  const expires = new Date(Date.now() + SESSION_MAX_AGE_S * 1000);
  const db = await getDb();
  await db.session.create({ data: { sessionToken: hashSessionToken(token), userId, expires } });
  return { token, expires };
}

/**
 * The user of a live session, or null when the token is unknown, revoked or expired. Deleted
 * accounts are returned (the caller decides).
 */
export async function findSessionUser(token: string): Promise<StoredSessionUser | null> {
  // Tokens we issue are 43 characters; anything far longer is not ours (and not worth hashing).
  if (!token || token.length > 256) return null;
  const db = await getDb();
  const row = await db.session.findUnique({
    where: { sessionToken: hashSessionToken(token) },
    select: { expires: true, user: { select: { id: true, email: true, deletedAt: true } } },
  });
  if (!row || row.expires.getTime() <= Date.now()) return null;
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
