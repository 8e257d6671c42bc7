import "server-only";
import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { getDb } from "@/lib/db/client";
import { UserUnavailableError } from "@/lib/db/errors";
import {
  generateDataKey,
  getMasterKeys,
  unwrapDataKey,
  UnknownMasterKeyError,
  wipe,
  wrapDataKey,
} from "@/lib/crypto";

/** The global client or an interactive transaction's client. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

/**
 * Per-user data keys (lib/crypto.ts "Keys"): creation, unwrapping, master key rotation.
 * Re-exported by lib/db/queries.ts, the data-access entry point.
 */

/**
 * Create the user's data key if missing (idempotent, safe under concurrent calls).
 * @throws UserUnavailableError when the user does not exist or was deleted.
 */
export async function ensureDataKey(userId: string): Promise<void> {
  wipe(await loadDataKey(await getDb(), userId, { create: true }));
}

/**
 * The user's unwrapped data key; the caller wipes it after use.
 * With `create`, makes one first when missing; without, returns null when missing.
 * @throws UserUnavailableError (create only), UnknownMasterKeyError, DecryptionError.
 */
export async function loadDataKey(db: DbClient, userId: string, options: { create: true }): Promise<Uint8Array>;
export async function loadDataKey(db: DbClient, userId: string, options?: { create?: false }): Promise<Uint8Array | null>;
export async function loadDataKey(
  db: DbClient,
  userId: string,
  options: { create?: boolean } = {},
): Promise<Uint8Array | null> {
  const keys = await getMasterKeys();
  let row = await db.dataKey.findUnique({ where: { userId } });
  if (!row && options.create) {
    const fresh = generateDataKey();
    const wrapped = wrapDataKey(fresh, userId, keys.current);
    wipe(fresh);
    // One statement: no key for a missing or deleted user, and a concurrent creation wins cleanly.
    await db.$executeRaw`
      INSERT INTO data_keys (user_id, wrapped_key, master_key_id)
      SELECT id, ${wrapped}, ${keys.current.id} FROM users WHERE id = ${userId} AND deleted_at IS NULL
      ON CONFLICT (user_id) DO NOTHING`;
    row = await db.dataKey.findUnique({ where: { userId } });
    if (!row) {
      const user = await db.user.findUnique({ where: { id: userId }, select: { deletedAt: true } });
      throw new UserUnavailableError(user ? "deleted" : "missing");
    }
  }
  if (!row) return null;
  return unwrapDataKey(row.wrappedKey, { userId, masterKeyId: row.masterKeyId }, keys);
}

export interface RotationResult {
  /** Data keys re-wrapped under the current master key by this run. */
  rewrapped: number;
  /** Data keys now under the current master key (including those just re-wrapped). */
  current: number;
  /** Data keys wrapped under a master key that is not configured: left untouched. */
  unavailable: number;
}

/**
 * Re-wrap every data key not under ENCRYPTION_MASTER_KEY, unwrapping it with
 * ENCRYPTION_MASTER_KEY_PREVIOUS. Batched (keyset over user id, one transaction per batch) and
 * idempotent: a second run re-wraps nothing. Data (chats, messages) is never touched.
 * @param options.onBatch progress callback after each batch (counts so far).
 */
export async function rotateDataKeys(
  options: { batchSize?: number; onBatch?: (progress: RotationResult) => void } = {},
): Promise<RotationResult> {
  const batchSize = options.batchSize ?? 500;
  const db = await getDb();
  const keys = await getMasterKeys();
  const result: RotationResult = { rewrapped: 0, current: 0, unavailable: 0 };
  let after = "";
  for (;;) {
    const rows = await db.dataKey.findMany({
      where: { userId: { gt: after }, masterKeyId: { not: keys.current.id } },
      orderBy: { userId: "asc" },
      take: batchSize,
      select: { userId: true, wrappedKey: true, masterKeyId: true },
    });
    if (!rows.length) break;
    after = rows[rows.length - 1]!.userId;
    const updates: Prisma.PrismaPromise<Prisma.BatchPayload>[] = [];
    for (const row of rows) {
      let dataKey: Uint8Array;
      try {
        dataKey = unwrapDataKey(row.wrappedKey, row, keys);
      } catch (error) {
        if (!(error instanceof UnknownMasterKeyError)) throw error;
        result.unavailable++;
        continue;
      }
      const wrappedKey = wrapDataKey(dataKey, row.userId, keys.current);
      wipe(dataKey);
      // Conditional on the old id: a row changed meanwhile (shredded, re-wrapped) is left alone.
      updates.push(
        db.dataKey.updateMany({
          where: { userId: row.userId, masterKeyId: row.masterKeyId },
          data: { wrappedKey, masterKeyId: keys.current.id },
        }),
      );
    }
    const done = await db.$transaction(updates);
    result.rewrapped += done.reduce((sum, r) => sum + r.count, 0);
    options.onBatch?.({ ...result });
  }
  result.current = await db.dataKey.count({ where: { masterKeyId: keys.current.id } });
  return result;
}
