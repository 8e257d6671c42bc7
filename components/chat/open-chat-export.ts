import { deserialize } from "@/lib/browser/chat/branches";
import { chatsToJson, chatToMarkdown, exportFileName, type ExportableChat } from "@/lib/browser/chat/export";
import { storedPath, treeForSaving, type SavedMessage } from "@/lib/browser/chat/saved-tree";
import { displayNameFrom } from "@/lib/browser/vault/saved-chat-rules";
import { toast } from "@/components/ui/toaster";
import { downloadText } from "@/lib/browser/files/download";
import type { HistoryEntry } from "./use-chat-history";
import type { useConversation } from "./use-conversation";

type Conversation = Pick<ReturnType<typeof useConversation>, "tree" | "chatId">;

/**
 * Export the open chat from what this browser holds (decrypted), with its versions, as a
 * Markdown or JSON download; `chats` gives a saved chat its name and date.
 */
export function exportOpenChat(chat: Conversation, chats: readonly HistoryEntry[], kind: "md" | "json"): void {
  const path = storedPath(chat.tree);
  const wire = treeForSaving(chat.tree);
  const entry = chat.chatId ? chats.find((c) => c.chat_id === chat.chatId) : undefined;
  const now = new Date();
  const exportable: ExportableChat = {
    id: chat.chatId ?? "unsaved",
    title: entry?.display_name ?? displayNameFrom(path.map((n) => n.message)),
    createdAt: null,
    updatedAt: entry?.last_updated ?? now.toISOString(),
    messages: path.map(({ message: m }) => ({ role: m.role, content: m.content, attachmentName: m.attachmentName ?? null })),
    tree: wire === null ? null : deserialize<SavedMessage>(wire),
  };
  const name = exportFileName(exportable.title, kind, now);
  if (kind === "md") downloadText(name, chatToMarkdown(exportable), "text/markdown");
  else downloadText(name, chatsToJson([exportable], now), "application/json");
  toast.success(`Exported this chat as ${kind === "md" ? "Markdown" : "JSON"}`);
}
