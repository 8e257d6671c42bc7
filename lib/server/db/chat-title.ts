import "server-only";
import { getDb } from "@/lib/server/db/client";
import { chatVersionConflict, manifestConflict } from "@/lib/server/db/errors";
import { writeManifest, type IntegrityWrite } from "@/lib/server/db/sealed-chats";

/**
 * Store a new sealed title for a vault chat; last_updated is left alone, so a rename does not move the chat.
 * `integrity` is compare-and-set in the same transaction. @returns false when not the user's vault chat.
 * @throws AppError conflict:chat_version, AppError conflict:manifest
 */
export async function renameSealedChat(input: {
  userId: string;
  chatId: string;
  title: Uint8Array<ArrayBuffer>;
  integrity?: IntegrityWrite;
}): Promise<boolean> {
  const db = await getDb();
  const { integrity } = input;
  if (!integrity) {
    const { count } = await db.chat.updateMany({
      where: { id: input.chatId, userId: input.userId },
      data: { titleCiphertext: input.title },
    });
    return count === 1;
  }
  return db.$transaction(async (tx) => {
    const chat = await tx.chat.findUnique({ where: { userId_id: { userId: input.userId, id: input.chatId } }, select: { version: true } });
    if (!chat) return false;
    // A chat under another key generation (a rotation under way) cannot take this writer's header.
    const stale = await tx.chat.count({ where: { id: input.chatId, userId: input.userId, keyGeneration: { not: integrity.manifest.keyGeneration } } });
    if (stale) throw manifestConflict();
    const { count } = await tx.chat.updateMany({
      where: { id: input.chatId, userId: input.userId, version: integrity.baseVersion },
      data: { titleCiphertext: input.title, headerCiphertext: integrity.header, version: integrity.baseVersion + 1 },
    });
    if (count !== 1) throw chatVersionConflict();
    await writeManifest(tx, input.userId, integrity.manifest);
    return true;
  });
}
