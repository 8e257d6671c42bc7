import "server-only";
import { getDb } from "@/lib/server/db/client";
import { noVault } from "@/lib/server/db/errors";
import { AppError } from "@/lib/shared/errors";

/** Memory: one browser-sealed ciphertext per user, its version in clear for compare-and-set. */

const memoryConflict = () => new AppError("conflict:memory_version", "Your memories changed on another device meanwhile. Reload and try again.");

export interface StoredMemory {
  sealed: Uint8Array<ArrayBuffer>;
  version: number;
  updatedAt: Date;
}

export async function readMemory(userId: string): Promise<StoredMemory | null> {
  const db = await getDb();
  const row = await db.memory.findUnique({ where: { userId }, select: { sealed: true, version: true, updatedAt: true } });
  return row ? { sealed: new Uint8Array(row.sealed), version: row.version, updatedAt: row.updatedAt } : null;
}

/**
 * Store the sealed list as `version` when the stored one is `baseVersion` (0: none yet).
 * @throws AppError conflict:no_vault, conflict:memory_version
 */
export async function writeMemory(input: { userId: string; sealed: Uint8Array<ArrayBuffer>; version: number; baseVersion: number }): Promise<void> {
  const db = await getDb();
  const sealed = Buffer.from(input.sealed).toString("base64");
  const [row] = await db.$queryRaw<{ has_vault: number; written: number }[]>`
    WITH v AS (SELECT 1 FROM vaults WHERE user_id = ${input.userId}),
    w AS (
      INSERT INTO memories (user_id, sealed, version, updated_at)
      SELECT ${input.userId}, decode(${sealed}::text, 'base64'), ${input.version}, date_trunc('minute', now())
      FROM v WHERE ${input.baseVersion}::int = 0
      ON CONFLICT (user_id) DO UPDATE SET sealed = EXCLUDED.sealed, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
        WHERE memories.version = ${input.baseVersion}::int
      RETURNING 1
    ),
    u AS (
      UPDATE memories SET sealed = decode(${sealed}::text, 'base64'), version = ${input.version}, updated_at = date_trunc('minute', now())
      WHERE user_id = ${input.userId} AND version = ${input.baseVersion}::int AND ${input.baseVersion}::int > 0 AND EXISTS (SELECT 1 FROM v)
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM v)::int AS has_vault, ((SELECT count(*) FROM w) + (SELECT count(*) FROM u))::int AS written`;
  if (!row?.has_vault) throw noVault();
  if (!row.written) throw memoryConflict();
}
