import "server-only";
import { getDb } from "@/lib/server/db/client";
import { canonicalUuid } from "@/lib/shared/uuid";
import { vacuumKeyTables } from "@/lib/server/db/key-vacuum";
import { writeManifest, type ManifestWrite } from "@/lib/server/db/sealed-chats";

/**
 * Data access for saved chats: the one home for reading and writing users' history. Chats are saved
 * only as the browser encrypted them, under a vault key the server never holds (lib/server/db/vault.ts,
 * lib/server/db/sealed-chats.ts and lib/server/db/sealed-chat-reads.ts, re-exported here). Every function scopes by `userId`: another user's chat
 * behaves exactly like a missing one.
 */

export * from "@/lib/server/db/vault";
export * from "@/lib/server/db/sealed-chats";
export * from "@/lib/server/db/sealed-chat-reads";
export * from "@/lib/server/db/vault-rotation";
export { chatNotFound, invalidCursor, invalidInput } from "@/lib/server/db/errors";
export { loadChatPreconditions, type ChatPreconditionInput, type ChatPreconditions } from "@/lib/server/db/chat-preconditions";

/**
 * Delete one of the user's chats with its messages; with `manifest` (the sealed manifest
 * without the chat) it is written in the same transaction, compare-and-set on its version.
 * @returns false when missing or another user's. @throws AppError conflict:manifest
 */
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
 * Account deletion, in one transaction: delete the user's vault and its wrapped keys (so the
 * ciphertext left behind, in dead tuples, WAL or a later dump, can no longer be opened even with a
 * user's secret), all their chats, projects (with their files), memories and share links, and set `deletedAt` (kept if already set). The user row stays so
 * the app can show "Account Deleted" (docs/product.md §2). Backups taken before still hold the wraps until they expire.
 * @returns how many chats were deleted.
 */
export async function shredUserData(userId: string): Promise<{ chatsDeleted: number }> {
  const db = await getDb();
  const [, , , chats] = await db.$transaction([
    db.vaultMethod.deleteMany({ where: { userId } }),
    db.vault.deleteMany({ where: { userId } }),
    db.webauthnChallenge.deleteMany({ where: { userId } }),
    db.chat.deleteMany({ where: { userId } }),
    // The account's share links stop working with it.
    db.share.deleteMany({ where: { userId } }),
    db.user.updateMany({ where: { id: userId, deletedAt: null }, data: { deletedAt: new Date() } }),
    // After the chats, which reference them.
    db.project.deleteMany({ where: { userId } }),
    // docs/issues.md #41: memories (project files went with their projects).
    db.memory.deleteMany({ where: { userId } }),
  ]);
  // The wrapped keys must not stay readable in dead tuples of the key table.
  await vacuumKeyTables();
  return { chatsDeleted: chats.count };
}
