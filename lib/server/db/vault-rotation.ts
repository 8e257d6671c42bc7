import "server-only";
import { Prisma } from "@/lib/server/db/generated/prisma/client";
import { AppError } from "@/lib/shared/errors";
import { getDb } from "@/lib/server/db/client";
import { invalidInput, noVault } from "@/lib/server/db/errors";
import { writeManifest, type ManifestWrite, type SealedMessage } from "@/lib/server/db/sealed-chats";
import { vacuumKeyTables } from "@/lib/server/db/key-vacuum";
import { assertDistinctMethods, DUPLICATE_METHOD, type NewVaultMethod } from "@/lib/server/db/vault";

/** Vault key rotation in three steps the browser drives: start, reseal chats (resumable), finish. */

const rotationConflict = (message: string) => new AppError("conflict:rotation", message);

export interface RotationStart {
  generation: number;
  nextKey: Uint8Array<ArrayBuffer>;
  methods: NewVaultMethod[];
}

/** Step 1. @throws AppError conflict:no_vault; conflict:rotation; bad_request:input for a repeated method id. */
export async function startRotation(userId: string, start: RotationStart): Promise<void> {
  assertDistinctMethods(start.methods);
  const db = await getDb();
  try {
    await insertRotationStart(db, userId, start);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw invalidInput(DUPLICATE_METHOD);
    throw error;
  }
}

async function insertRotationStart(db: Awaited<ReturnType<typeof getDb>>, userId: string, start: RotationStart): Promise<void> {
  await db.$transaction(async (tx) => {
    const [vault] = await tx.$queryRaw<{ key_generation: number; next_key_ciphertext: Uint8Array | null }[]>`
      SELECT key_generation, next_key_ciphertext FROM vaults WHERE user_id = ${userId} FOR UPDATE`;
    if (!vault) throw noVault();
    if (vault.next_key_ciphertext) throw rotationConflict("A key rotation is under way: it finishes at the next unlock.");
    if (start.generation !== vault.key_generation + 1) throw rotationConflict("The vault key changed meanwhile. Reload and try again.");
    await tx.vaultMethod.deleteMany({ where: { userId, generation: start.generation } });
    await tx.vaultMethod.createMany({
      data: start.methods.map((m) => ({
        id: m.id,
        userId,
        kind: m.kind,
        label: m.label,
        wrappedKey: m.wrappedKey,
        kdf: m.kdf as object,
        generation: start.generation,
      })),
    });
    await tx.vault.update({ where: { userId }, data: { nextKeyCiphertext: start.nextKey } });
  });
}

export async function rotationStatus(userId: string): Promise<{ generation: number; remaining: string[] } | null> {
  const db = await getDb();
  const vault = await db.vault.findUnique({ where: { userId }, select: { keyGeneration: true, nextKeyCiphertext: true } });
  if (!vault?.nextKeyCiphertext) return null;
  const chats = await db.chat.findMany({
    where: { userId, keyGeneration: { lt: vault.keyGeneration + 1 } },
    select: { id: true },
    orderBy: [{ lastUpdated: "desc" }, { id: "desc" }],
  });
  return { generation: vault.keyGeneration + 1, remaining: chats.map((c) => c.id) };
}

export interface ResealedChat {
  chatId: string;
  baseVersion: number;
  title: Uint8Array<ArrayBuffer> | null;
  tree: Uint8Array<ArrayBuffer> | null;
  header: Uint8Array<ArrayBuffer>;
  messages: SealedMessage[];
}

/** Step 2: store resealed chats in place; changed or foreign ones are skipped. @returns the ids stored. @throws AppError conflict:rotation */
export async function storeResealedChats(userId: string, generation: number, chats: ResealedChat[]): Promise<string[]> {
  const db = await getDb();
  return db.$transaction(
    async (tx) => {
      const [vault] = await tx.$queryRaw<{ key_generation: number; next_key_ciphertext: Uint8Array | null }[]>`
        SELECT key_generation, next_key_ciphertext FROM vaults WHERE user_id = ${userId} FOR SHARE`;
      if (!vault?.next_key_ciphertext || vault.key_generation + 1 !== generation) throw rotationConflict("No key rotation to this generation is under way.");
      const stored: string[] = [];
      for (const chat of chats) {
        const rows = JSON.stringify(
          chat.messages.map((m, position) => ({
            position,
            role: m.role,
            content: Buffer.from(m.content).toString("base64"),
            attachment: m.attachment ? Buffer.from(m.attachment).toString("base64") : null,
            steps: m.steps ? Buffer.from(m.steps).toString("base64") : null,
          })),
        );
        const [result] = await tx.$queryRaw<{ ok: number }[]>`
          WITH target AS (
            SELECT c.id FROM chats c
            WHERE c.user_id = ${userId} AND c.id = ${chat.chatId}::uuid AND c.version = ${chat.baseVersion}
              AND c.key_generation < ${generation}
              AND (SELECT count(*) FROM messages m WHERE m.user_id = c.user_id AND m.chat_id = c.id) = ${chat.messages.length}
            FOR UPDATE OF c
          ),
          msgs AS (
            UPDATE messages m SET content_ciphertext = decode(x.content, 'base64'), attachment_ciphertext = decode(x.attachment, 'base64'),
              steps_ciphertext = decode(x.steps, 'base64')
            FROM target t, jsonb_to_recordset(${rows}::jsonb) AS x(position int, role text, content text, attachment text, steps text)
            WHERE m.user_id = ${userId} AND m.chat_id = t.id AND m.position = x.position AND m.role = x.role
            RETURNING 1
          )
          SELECT (SELECT count(*) FROM msgs)::int AS ok`;
        if (result?.ok !== chat.messages.length) {
          if (result?.ok) throw invalidInput("The resealed messages do not match the stored roles.");
          continue;
        }
        await tx.chat.update({
          where: { userId_id: { userId, id: chat.chatId } },
          data: { titleCiphertext: chat.title, treeCiphertext: chat.tree, headerCiphertext: chat.header, keyGeneration: generation },
        });
        stored.push(chat.chatId);
      }
      return stored;
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}

/** Step 3, once every chat is resealed. @throws AppError conflict:rotation (chats left, or none), conflict:manifest */
export async function finishRotation(userId: string, generation: number, manifest: ManifestWrite): Promise<void> {
  const db = await getDb();
  await db.$transaction(async (tx) => {
    const [vault] = await tx.$queryRaw<{ key_generation: number; next_key_ciphertext: Uint8Array | null }[]>`
      SELECT key_generation, next_key_ciphertext FROM vaults WHERE user_id = ${userId} FOR UPDATE`;
    if (!vault?.next_key_ciphertext || vault.key_generation + 1 !== generation) throw rotationConflict("No key rotation to this generation is under way.");
    const left = await tx.chat.count({ where: { userId, keyGeneration: { lt: generation } } });
    if (left) throw rotationConflict(`${left} saved ${left === 1 ? "chat is" : "chats are"} still sealed under the old key.`);
    await tx.vault.update({ where: { userId }, data: { keyGeneration: generation, nextKeyCiphertext: null } });
    await writeManifest(tx, userId, { ...manifest, keyGeneration: generation });
    await tx.vaultMethod.deleteMany({ where: { userId, generation: { not: generation } } });
    await tx.vaultDevice.deleteMany({ where: { userId } });
  });
  await vacuumKeyTables();
}
