import "server-only";
import { getDb } from "@/lib/server/db/client";
import { invalidInput } from "@/lib/server/db/errors";
import { MAX_SHARES_PER_USER } from "@/lib/shared/share/schemas";
import { canonicalUuid } from "@/lib/shared/uuid";

/** Share links: rows hold only browser-sealed ciphertext; owner calls scope by `userId`, reading by id is public. */

export interface ShareInfo {
  id: string;
  createdAt: Date;
  bytes: number;
}

/** Counted under a lock on the user row. @throws AppError bad_request:input past MAX_SHARES_PER_USER. */
export async function createShare(userId: string, ciphertext: Uint8Array<ArrayBuffer>): Promise<{ id: string; createdAt: Date }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`;
    if ((await tx.share.count({ where: { userId } })) >= MAX_SHARES_PER_USER) {
      throw invalidInput(`At most ${MAX_SHARES_PER_USER} share links: revoke one in Settings first.`);
    }
    return tx.share.create({ data: { userId, ciphertext }, select: { id: true, createdAt: true } });
  });
}

/** Newest first, with ciphertext sizes only. */
export async function listShares(userId: string): Promise<ShareInfo[]> {
  const db = await getDb();
  const rows = await db.$queryRaw<{ id: string; created_at: Date; bytes: number }[]>`
    SELECT id::text AS id, created_at, octet_length(ciphertext)::int AS bytes
    FROM shares WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC`;
  return rows.map((r) => ({ id: r.id, createdAt: r.created_at, bytes: Number(r.bytes) }));
}

/** Null when missing, revoked or not a UUID. */
export async function readShare(id: string): Promise<{ id: string; createdAt: Date; ciphertext: Uint8Array } | null> {
  const shareId = canonicalUuid(id);
  if (!shareId) return null;
  const db = await getDb();
  return db.share.findUnique({ where: { id: shareId }, select: { id: true, createdAt: true, ciphertext: true } });
}

/** @returns false when missing or another user's. */
export async function revokeShare(userId: string, id: string): Promise<boolean> {
  const shareId = canonicalUuid(id);
  if (!shareId) return false;
  const db = await getDb();
  const { count } = await db.share.deleteMany({ where: { id: shareId, userId } });
  return count > 0;
}
