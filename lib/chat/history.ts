import "server-only";
import { appendMessages, createChat, getChat, listChats, type NewMessage } from "@/lib/db/queries";
import type { PreparedTurn } from "./turn";

/** Longest display name derived from a first message (spec §3 Chat.display_name). */
const TITLE_CHARS = 60;

/** The display name of a chat: its first user message, on one line, cut at 60 characters. */
export function displayNameFrom(messages: readonly { role: string; content: string }[]): string | null {
  const first = messages.find((m) => m.role === "user")?.content.replace(/\s+/g, " ").trim();
  if (!first) return null;
  return first.length > TITLE_CHARS ? `${first.slice(0, TITLE_CHARS - 1).trimEnd()}…` : first;
}

/**
 * Store a finished turn encrypted (lib/db/queries.ts encrypts). A new chat stores the whole conversation
 * the client sent (so turning saving on mid-chat keeps what came before) and gets its display name;
 * an existing chat gets the last user message and the answer appended. The PDF's extracted text is
 * kept (encrypted) with the user message that carried it.
 * @returns the chat id.
 * @throws ChatNotFoundError when `chatId` is not the user's.
 */
export async function saveTurn(input: {
  userId: string;
  chatId: string | null;
  turn: PreparedTurn;
  answer: string;
}): Promise<string> {
  const { turn } = input;
  const conversation: NewMessage[] = turn.history.filter((m) => m.role !== "system").map((m) => ({ ...m }));
  const last = conversation.at(-1);
  if (last && turn.attachment && turn.attachmentText !== null) {
    last.attachment = { name: turn.attachment.name, text: turn.attachmentText };
  }
  const answer: NewMessage = { role: "assistant", content: input.answer };
  if (input.chatId === null) {
    const { chatId } = await createChat({
      userId: input.userId,
      messages: [...conversation, answer],
      title: displayNameFrom(conversation),
    });
    return chatId;
  }
  await appendMessages({ userId: input.userId, chatId: input.chatId, messages: [...(last ? [last] : []), answer] });
  return input.chatId;
}

/** One entry of GET /api/ns/chat_history (spec §3 Chat without its messages). */
export interface ChatHistoryEntry {
  chat_id: string;
  display_name: string | null;
  last_updated: string;
}

/** A page of the user's chats, newest first by last_updated (spec §2). */
export async function historyPage(userId: string, limit: number, cursor: string | null) {
  const page = await listChats({ userId, limit, cursor: cursor ?? undefined });
  const chat_history: ChatHistoryEntry[] = page.chats.map((c) => ({
    chat_id: c.chatId,
    display_name: c.title,
    last_updated: c.lastUpdated.toISOString(),
  }));
  return { chat_history, next_cursor: page.nextCursor };
}

/** One chat with its messages (spec §3 Chat); attachments are named, their text stays on the server. */
export async function historyChat(userId: string, chatId: string) {
  const chat = await getChat({ userId, chatId });
  return {
    chat_id: chat.chatId,
    display_name: chat.title,
    last_updated: chat.lastUpdated.toISOString(),
    messages: chat.messages.map((m) => ({
      role: m.role,
      content: m.content,
      ...(m.attachment ? { attachment_name: m.attachment.name } : {}),
    })),
  };
}
