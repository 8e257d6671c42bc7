import "server-only";
import { getDb } from "@/lib/db/client";

/**
 * Store a new display name for one of the user's vault chats (docs/issues.md #9: rename). `title` is vault
 * ciphertext made in the browser (lib/vault/seal.ts sealTitle); it is stored as given. last_updated
 * is left alone, so a rename does not move the chat in the list (as in ChatGPT).
 * @returns false when the chat is not one of the user's vault chats (another user's is "not found").
 */
export async function renameSealedChat(input: { userId: string; chatId: string; title: Uint8Array<ArrayBuffer> }): Promise<boolean> {
  const db = await getDb();
  const { count } = await db.chat.updateMany({
    where: { id: input.chatId, userId: input.userId },
    data: { titleCiphertext: input.title },
  });
  return count === 1;
}
