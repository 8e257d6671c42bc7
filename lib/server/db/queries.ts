import "server-only";
import { getDb } from "@/lib/server/db/client";
import { canonicalUuid } from "@/lib/shared/uuid";
import { vacuumKeyTables } from "@/lib/server/db/key-vacuum";
import { writeManifest, type ManifestWrite } from "@/lib/server/db/sealed-chats";

/** Data access for saved chats, only as the browser encrypted them; another user's chat behaves like a missing one. */

export * from "@/lib/server/db/vault";
export * from "@/lib/server/db/sealed-chats";
export * from "@/lib/server/db/sealed-chat-reads";
export * from "@/lib/server/db/vault-rotation";
export { chatNotFound, invalidCursor, invalidInput } from "@/lib/server/db/errors";
export { loadChatPreconditions, type ChatPreconditionInput, type ChatPreconditions } from "@/lib/server/db/chat-preconditions";

/** Delete a chat, writing `manifest` in the same transaction. @returns false when missing. @throws AppError conflict:manifest */
export async function deleteChat(input: { userId: string; chatId: string; manifest?: ManifestWrite }): Promise<boolean> {
  const chatId = canonicalUuid(input.chatId);
  if (!chatId) return false;
  const db = await getDb();
  const { manifest } = input;
  if (!manifest) {
    const { count } = await db.chat.deleteMany({ where: { id: chatId, userId: input.userId } });
    return count > 0;
  }
  return db.$transaction(async (tx) => {
    const { count } = await tx.chat.deleteMany({ where: { id: chatId, userId: input.userId } });
    if (count === 0) return false;
    await writeManifest(tx, input.userId, manifest);
    return true;
  });
}

/**
 * Account deletion in one transaction: the vault's wrapped keys (so leftover ciphertext cannot be opened), chats,
 * projects, memories and shares; `deletedAt` set, the row kept (docs/product.md §2). @returns how many chats went.
 */
export async function shredUserData(userId: string): Promise<{ chatsDeleted: number }> {
  const db = await getDb();
  const [, , , chats] = await db.$transaction([
    db.vaultMethod.deleteMany({ where: { userId } }),
    db.vault.deleteMany({ where: { userId } }),
    db.webauthnChallenge.deleteMany({ where: { userId } }),
    db.chat.deleteMany({ where: { userId } }),
    db.share.deleteMany({ where: { userId } }),
    db.user.updateMany({ where: { id: userId, deletedAt: null }, data: { deletedAt: new Date() } }),
    // After the chats, which reference them.
    db.project.deleteMany({ where: { userId } }),
    db.memory.deleteMany({ where: { userId } }),
  ]);
  // The wrapped keys must not stay readable in dead tuples.
  await vacuumKeyTables();
  return { chatsDeleted: chats.count };
}
