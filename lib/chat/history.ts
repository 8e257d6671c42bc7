import "server-only";
import { getSealedChat, listSealedChats } from "@/lib/db/queries";

/**
 * Saved history as the API returns it (spec §3, §7; issue 8): everything a user wrote is ciphertext
 * made in their browser under the vault key, returned as base64 for the browser to decrypt. The
 * server has no key that opens it, so `display_name` is always null here and `content` always "":
 * the browser fills them from `display_name_ciphertext` and `content_ciphertext`.
 */

const b64 = (bytes: Uint8Array | null) => (bytes ? Buffer.from(bytes).toString("base64") : null);

/** One entry of GET /api/ns/chat_history (spec §3 Chat without its messages). */
export interface ChatHistoryEntry {
  chat_id: string;
  display_name: null;
  /** Base64 vault ciphertext of the display name (lib/vault/crypto.ts), null for "Untitled Chat". */
  display_name_ciphertext: string | null;
  last_updated: string;
}

/** A page of the user's chats, newest first by last_updated (spec §2). */
export async function historyPage(userId: string, limit: number, cursor: string | null) {
  const page = await listSealedChats({ userId, limit, cursor });
  const chat_history: ChatHistoryEntry[] = page.chats.map((c) => ({
    chat_id: c.chatId,
    display_name: null,
    display_name_ciphertext: b64(c.title),
    last_updated: c.lastUpdated.toISOString(),
  }));
  return { chat_history, next_cursor: page.nextCursor };
}

/**
 * One chat with its messages (spec §3 Chat), each as vault ciphertext with its position, and the sealed
 * branch tree of its edited and regenerated versions (issue 9).
 */
export async function historyChat(userId: string, chatId: string) {
  const chat = await getSealedChat({ userId, chatId });
  return {
    chat_id: chat.chatId,
    display_name: null,
    display_name_ciphertext: b64(chat.title),
    /** Base64 vault ciphertext of the branch tree (issue 9), null for a chat without versions. */
    tree_ciphertext: b64(chat.tree),
    created_at: chat.createdAt.toISOString(),
    last_updated: chat.lastUpdated.toISOString(),
    messages: chat.messages.map((m) => ({
      role: m.role,
      content: "",
      position: m.position,
      content_ciphertext: b64(m.content),
      attachment_ciphertext: b64(m.attachment),
    })),
  };
}
