import "server-only";
import { getDb } from "@/lib/server/db/client";
import { invalidInput } from "@/lib/server/db/errors";
import { MAX_SHARES_PER_USER } from "@/lib/shared/share/schemas";
import { canonicalUuid } from "@/lib/shared/uuid";

/**
 * Data access for share links: rows hold only the ciphertext the browser
 * sealed under a key the server never receives (lib/browser/share/crypto.ts). Owner operations scope by
 * `userId`, so another user's share behaves exactly like a missing one; reading by id is public (the
 * link is the capability).
 */

/** A share as its owner lists it. */
export interface ShareInfo {
  id: string;
  createdAt: Date;
  bytes: number;
}

/**
 * Store a new share for `userId`. The owner's rows are counted under a lock on the user row, so two
 * tabs cannot both pass MAX_SHARES_PER_USER.
 * @throws AppError bad_request:input past MAX_SHARES_PER_USER.
 */
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

/** The user's shares, newest first, with their ciphertext sizes (not the ciphertexts). */
export async function listShares(userId: string): Promise<ShareInfo[]> {
  const db = await getDb();
  const rows = await db.$queryRaw<{ id: string; created_at: Date; bytes: number }[]>`
    SELECT id::text AS id, created_at, octet_length(ciphertext)::int AS bytes
    FROM shares WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC`;
  return rows.map((r) => ({ id: r.id, createdAt: r.created_at, bytes: Number(r.bytes) }));
}

/** A share's ciphertext by id (anyone holding the link), or null when missing, revoked or not a UUID. */
export async function readShare(id: string): Promise<{ id: string; createdAt: Date; ciphertext: Uint8Array } | null> {
  const shareId = canonicalUuid(id);
  if (!shareId) return null;
  const db = await getDb();
  return db.share.findUnique({ where: { id: shareId }, select: { id: true, createdAt: true, ciphertext: true } });
}

/** Revoke (delete) one of the user's shares. @returns false when missing or another user's. */
export async function revokeShare(userId: string, id: string): Promise<boolean> {
  const shareId = canonicalUuid(id);
  if (!shareId) return false;
  const db = await getDb();
  const { count } = await db.share.deleteMany({ where: { id: shareId, userId } });
  return count > 0;
}
