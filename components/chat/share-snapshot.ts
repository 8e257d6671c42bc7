import { storedPath } from "@/lib/browser/chat/saved-tree";
import { displayNameFrom } from "@/lib/browser/vault/saved-chat-rules";
import type { HistoryEntry } from "./use-chat-history";
import type { useConversation } from "./use-conversation";

type Conversation = Pick<ReturnType<typeof useConversation>, "tree" | "chatId">;

/** What a share link shows, the open saved chat's shown path as this browser holds it. */
export function shareSnapshotOf(chat: Conversation, chats: readonly HistoryEntry[]) {
  const path = storedPath(chat.tree);
  const entry = chat.chatId ? chats.find((c) => c.chat_id === chat.chatId) : undefined;
  return {
    v: 1 as const,
    title: entry?.display_name || displayNameFrom(path.map((n) => n.message)) || "Untitled Chat",
    sharedAt: new Date().toISOString(),
    messages: path.flatMap(({ message: m }) =>
      m.role === "system" ? [] : [{ role: m.role, content: m.content, ...(m.attachmentName ? { attachmentName: m.attachmentName } : {}) }],
    ),
  };
}
