import "server-only";
import { Prisma } from "@/lib/server/db/generated/prisma/client";
import { getDb } from "@/lib/server/db/client";
import { invalidInput, noVault, vaultExists } from "@/lib/server/db/errors";
import { vacuumKeyTables } from "@/lib/server/db/key-vacuum";
import { MAX_REMEMBERED_DEVICES } from "@/lib/shared/vault/schemas";


/** Data access for the vault; the server stores ciphertext, scoped by `userId`. */

export type MethodKind = "passkey" | "passphrase" | "recovery";

export interface NewVaultMethod {
  id: string;
  kind: MethodKind;
  label: string | null;
  wrappedKey: Uint8Array<ArrayBuffer>;
  kdf: Record<string, unknown>;
  passkey?: { credentialId: string; publicKey: Uint8Array<ArrayBuffer>; counter: number; transports: string[] };
}

export interface VaultMethodInfo {
  id: string;
  kind: MethodKind;
  label: string | null;
  wrappedKey: Uint8Array;
  kdf: unknown;
  credentialId: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface VaultState {
  vault: {
    historyOn: boolean;
    lastUnlockAt: Date | null;
    createdAt: Date;
    manifestCiphertext: Uint8Array | null;
    manifestVersion: number;
    keyGeneration: number;
    nextKeyCiphertext: Uint8Array | null;
  } | null;
  methods: VaultMethodInfo[];
}

/** Only the current key generation's methods. */
export async function getVaultState(userId: string): Promise<VaultState> {
  const db = await getDb();
  const vault = await db.vault.findUnique({ where: { userId } });
  const methods = await db.vaultMethod.findMany({ where: { userId, generation: vault?.keyGeneration ?? 0 }, orderBy: { createdAt: "asc" } });
  return {
    vault: vault && {
      historyOn: vault.historyOn,
      lastUnlockAt: vault.lastUnlockAt,
      createdAt: vault.createdAt,
      manifestCiphertext: vault.manifestCiphertext,
      manifestVersion: vault.manifestVersion,
      keyGeneration: vault.keyGeneration,
      nextKeyCiphertext: vault.nextKeyCiphertext,
    },
    methods: methods.map((m) => ({
      id: m.id,
      kind: m.kind as MethodKind,
      label: m.label,
      wrappedKey: m.wrappedKey,
      kdf: m.kdf,
      credentialId: m.credentialId,
      createdAt: m.createdAt,
      lastUsedAt: m.lastUsedAt,
    })),
  };
}

function methodRow(userId: string, m: NewVaultMethod) {
  return {
    id: m.id,
    userId,
    kind: m.kind,
    label: m.label,
    wrappedKey: m.wrappedKey,
    kdf: m.kdf as Prisma.InputJsonObject,
    credentialId: m.passkey?.credentialId ?? null,
    publicKey: m.passkey?.publicKey ?? null,
    counter: BigInt(m.passkey?.counter ?? 0),
    transports: m.passkey?.transports ?? [],
  };
}

/** @throws AppError conflict:vault_exists */
export async function createVault(userId: string, methods: NewVaultMethod[]): Promise<void> {
  if (!methods.length) throw invalidInput("A vault needs at least one unlock method.");
  assertDistinctMethods(methods);
  const db = await getDb();
  try {
    await db.$transaction([
      db.vault.create({ data: { userId, historyOn: true, lastUnlockAt: new Date() } }),
      db.vaultMethod.createMany({ data: methods.map((m) => methodRow(userId, m)) }),
    ]);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw vaultExists();
    throw error;
  }
}

export const DUPLICATE_METHOD = "That unlock method is already registered.";

/** @throws AppError bad_request:input */
export function assertDistinctMethods(methods: NewVaultMethod[]): void {
  const ids = new Set(methods.map((m) => m.id.toLowerCase()));
  const credentials = methods.flatMap((m) => (m.passkey ? [m.passkey.credentialId] : []));
  if (ids.size !== methods.length || new Set(credentials).size !== credentials.length) throw invalidInput(DUPLICATE_METHOD);
}

export async function setHistoryOn(userId: string, on: boolean): Promise<boolean> {
  const db = await getDb();
  const { count } = await db.vault.updateMany({ where: { userId }, data: { historyOn: on } });
  return count > 0;
}

/** @throws AppError conflict:no_vault; AppError bad_request:input for a passkey already registered. */
export async function addVaultMethod(userId: string, method: NewVaultMethod): Promise<void> {
  const db = await getDb();
  const vault = await db.vault.findUnique({ where: { userId }, select: { keyGeneration: true } });
  if (!vault) throw noVault();
  try {
    await db.vaultMethod.create({ data: { ...methodRow(userId, method), generation: vault.keyGeneration } });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw invalidInput(DUPLICATE_METHOD);
    }
    throw error;
  }
}

/** Replace a method by one of the same kind, then VACUUM the old wrap away. @throws AppError bad_request:input, conflict:no_vault */
export async function replaceVaultMethod(userId: string, replacesId: string, method: NewVaultMethod): Promise<boolean> {
  const db = await getDb();
  if (!(await db.vault.count({ where: { userId } }))) throw noVault();
  let replaced: boolean;
  try {
    replaced = await db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ kind: string; created_at: Date; last_used_at: Date | null; generation: number }[]>`
        SELECT kind, created_at, last_used_at, generation FROM vault_methods WHERE user_id = ${userId} AND id::text = ${replacesId} FOR UPDATE`;
      const old = rows[0];
      if (!old) return false;
      if (old.kind !== method.kind) throw invalidInput(`A ${old.kind} method can only be replaced by another ${old.kind}.`);
      await tx.vaultMethod.delete({ where: { userId_id: { userId, id: replacesId } } });
      await tx.vaultMethod.create({
        data: { ...methodRow(userId, method), createdAt: old.created_at, lastUsedAt: old.last_used_at, generation: old.generation },
      });
      return true;
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw invalidInput(DUPLICATE_METHOD);
    }
    throw error;
  }
  if (replaced) await vacuumKeyTables();
  return replaced;
}

/** Never the last method; then VACUUM. @throws AppError bad_request:input for the last method. */
export async function removeVaultMethod(userId: string, methodId: string): Promise<boolean> {
  const db = await getDb();
  const removed = await db.$transaction(async (tx) => {
    const methods = await tx.$queryRaw<{ id: string }[]>`
      SELECT m.id::text AS id FROM vault_methods m JOIN vaults v ON v.user_id = m.user_id AND v.key_generation = m.generation
      WHERE m.user_id = ${userId} FOR UPDATE OF m`;
    if (!methods.some((m) => m.id === methodId)) return false;
    if (methods.length === 1) throw invalidInput("Keep at least one way to unlock your history.");
    await tx.vaultMethod.delete({ where: { userId_id: { userId, id: methodId } } });
    return true;
  });
  if (removed) await vacuumKeyTables();
  return removed;
}

export interface VaultDeviceInfo {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export async function listVaultDevices(userId: string): Promise<VaultDeviceInfo[]> {
  const db = await getDb();
  return db.vaultDevice.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true },
  });
}

/** @throws AppError conflict:no_vault; bad_request:input past MAX_REMEMBERED_DEVICES. */
export async function createVaultDevice(userId: string, name: string, secret: Uint8Array<ArrayBuffer>): Promise<{ id: string }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    // Locked so two tabs cannot both pass the count.
    const vault = await tx.$queryRaw<{ user_id: string }[]>`SELECT user_id FROM vaults WHERE user_id = ${userId} FOR UPDATE`;
    if (!vault.length) throw noVault();
    if ((await tx.vaultDevice.count({ where: { userId } })) >= MAX_REMEMBERED_DEVICES) {
      throw invalidInput(`At most ${MAX_REMEMBERED_DEVICES} remembered devices: revoke one in Settings first.`);
    }
    return tx.vaultDevice.create({ data: { userId, name, secret }, select: { id: true } });
  });
}

export async function vaultDeviceShare(userId: string, deviceId: string): Promise<Uint8Array | null> {
  const db = await getDb();
  const now = new Date();
  const rows = await db.$queryRaw<{ secret: Uint8Array }[]>`
    UPDATE vault_devices SET last_used_at = ${now.toISOString()}::timestamptz
    WHERE id = ${deviceId}::uuid AND user_id = ${userId} RETURNING secret`;
  if (!rows[0]) return null;
  await db.vault.updateMany({ where: { userId }, data: { lastUnlockAt: now } });
  return rows[0].secret;
}

/** Then VACUUM, so its share is not left in a dead tuple. */
export async function revokeVaultDevice(userId: string, deviceId: string): Promise<boolean> {
  const db = await getDb();
  const { count } = await db.vaultDevice.deleteMany({ where: { id: deviceId, userId } });
  if (count) await vacuumKeyTables();
  return count > 0;
}

export async function recordUnlock(userId: string, methodId: string, counter?: number): Promise<void> {
  const db = await getDb();
  const now = new Date();
  await db.$transaction([
    db.vault.updateMany({ where: { userId }, data: { lastUnlockAt: now } }),
    db.vaultMethod.updateMany({
      where: { id: methodId, userId },
      data: { lastUsedAt: now, ...(counter !== undefined ? { counter: BigInt(counter) } : {}) },
    }),
  ]);
}

export async function findPasskey(userId: string, credentialId: string) {
  const db = await getDb();
  return db.vaultMethod.findFirst({ where: { userId, credentialId, kind: "passkey" } });
}

/** Valid 5 minutes. */
export async function saveChallenge(userId: string, challenge: string, purpose: string): Promise<void> {
  const db = await getDb();
  const expires = new Date(Date.now() + 5 * 60_000);
  await db.webauthnChallenge.upsert({
    where: { userId },
    create: { userId, challenge, purpose, expires },
    update: { challenge, purpose, expires },
  });
}

/** Null when none or expired. */
export async function takeChallenge(userId: string, purpose: string): Promise<string | null> {
  const db = await getDb();
  const rows = await db.$queryRaw<{ challenge: string; purpose: string; expires: Date }[]>`
    DELETE FROM webauthn_challenges WHERE user_id = ${userId} RETURNING challenge, purpose, expires`;
  const row = rows[0];
  return row && row.purpose === purpose && row.expires.getTime() > Date.now() ? row.challenge : null;
}
