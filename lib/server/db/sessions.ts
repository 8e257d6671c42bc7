import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { getConfig } from "@/lib/server/config";
import { getDb, getPool } from "@/lib/server/db/client";
import { Prisma } from "@/lib/server/db/generated/prisma/client";
import { securityEvent } from "@/lib/server/log";

/** Database sessions: the database keeps only the SHA-256 of the cookie's 256-bit token. */

/** ASVS 5.0 V7.3: idle SESSION_IDLE_DAYS and absolute SESSION_MAX_AGE_DAYS after `createdAt`. */
export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
}

function sessionLifetimes(): SessionLifetimes {
  const config = getConfig();
  return { idleMs: config.SESSION_IDLE_DAYS * 86_400_000, absoluteMs: config.SESSION_MAX_AGE_DAYS * 86_400_000 };
}

export function sessionIdleSeconds(): number {
  return Math.floor(sessionLifetimes().idleMs / 1000);
}

export const SESSION_REFRESH_AFTER_S = 24 * 60 * 60;

export function absoluteEnd(createdAt: Date): Date {
  return new Date(createdAt.getTime() + sessionLifetimes().absoluteMs);
}

/** Never past the absolute end. */
export function idleDeadline(createdAt: Date, now = Date.now()): Date {
  return new Date(Math.min(now + sessionLifetimes().idleMs, absoluteEnd(createdAt).getTime()));
}

export function generateSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export interface StoredSessionUser {
  id: string;
  email: string | null;
  deletedAt: Date | null;
}

/** @returns the cookie token and its expiry. */
export async function createSession(userId: string): Promise<{ token: string; expires: Date }> {
  const token = generateSessionToken();
  const createdAt = new Date();
  const db = await getDb();
  await db.session.create({
    data: { sessionToken: hashSessionToken(token), userId, createdAt, expires: idleDeadline(createdAt, createdAt.getTime()) },
  });
  return { token, expires: absoluteEnd(createdAt) };
}

export function sessionLive(row: { createdAt: Date; expires: Date }, now = Date.now()): boolean {
  return row.expires.getTime() > now && absoluteEnd(row.createdAt).getTime() > now;
}

/** sessionLive in SQL, with the columns acceptSessionRow needs. */
export function liveSessionSql(sessionTokenHash: string, now: Date): Prisma.Sql {
  const createdAfter = new Date(now.getTime() - sessionLifetimes().absoluteMs);
  return Prisma.sql`
    SELECT s.id, s.user_id, s.expires, s.created_at FROM sessions s
    WHERE s.session_token = ${sessionTokenHash}::text AND s.expires > ${now.toISOString()}::timestamptz
      AND s.created_at > ${createdAfter.toISOString()}::timestamptz`;
}

/** The user of a live session (moving its idle deadline forward), or null. */
export async function findSessionUser(token: string): Promise<StoredSessionUser | null> {
  if (!token || token.length > 256) return null;
  const pool = await getPool();
  const { rows } = await pool.query<{ id: string; expires: Date; created_at: Date; user_id: string; email: string | null; deleted_at: Date | null }>({
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

export interface SessionRow {
  id: string;
  expires: Date;
  createdAt: Date;
  user: StoredSessionUser;
}

export async function acceptSessionRow(row: SessionRow | null, now = Date.now()): Promise<StoredSessionUser | null> {
  if (!row || !sessionLive(row, now)) return null;
  const next = idleDeadline(row.createdAt, now);
  if (next.getTime() - row.expires.getTime() >= SESSION_REFRESH_AFTER_S * 1000) {
    const db = await getDb();
    await db.session.updateMany({ where: { id: row.id, expires: row.expires }, data: { expires: next } });
  }
  return row.user;
}

/** @returns how many were deleted. */
export async function revokeUserSessions(userId: string): Promise<number> {
  const db = await getDb();
  const { count } = await db.session.deleteMany({ where: { userId } });
  securityEvent("auth.session_revoked", { userId, count });
  return count;
}
