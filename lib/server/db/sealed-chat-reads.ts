import "server-only";
import { Prisma } from "@/lib/server/db/generated/prisma/client";
import { getDb } from "@/lib/server/db/client";
import { chatNotFound, invalidCursor, invalidInput } from "@/lib/server/db/errors";
import { MAX_PAGE_SIZE } from "@/lib/shared/chat/history-schema";
import { LOWERCASE_UUID } from "@/lib/shared/uuid";

/** Reading vault chats as ciphertext, scoped by the user. */

export interface SealedChatSummary {
  chatId: string;
  title: Uint8Array | null;
  lastUpdated: Date;
  /** 0: no header yet. */
  version: number;
}

export function encodeCursor(lastUpdated: Date, chatId: string): string {
  return Buffer.from(`${lastUpdated.getTime()}.${chatId}`).toString("base64url");
}

/** @throws AppError bad_request:cursor for any text encodeCursor did not make. */
export function decodeCursor(cursor: string): { lastUpdated: Date; chatId: string } {
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match || !LOWERCASE_UUID.test(match[2]!)) throw invalidCursor();
  return { lastUpdated: new Date(Number(match[1])), chatId: match[2]! };
}

/** Newest first, keyset-paginated. @throws AppError bad_request:input (limit), AppError bad_request:cursor. */
export async function listSealedChats(input: { userId: string; limit: number; cursor?: string | null }) {
  const { userId, limit } = input;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalidInput(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  }
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const db = await getDb();
  const rows = await db.$queryRaw<{ id: string; title_ciphertext: Uint8Array | null; last_updated: Date; version: number }[]>`
    SELECT id::text AS id, title_ciphertext, last_updated, version FROM chats
    WHERE user_id = ${userId}
    ${after ? Prisma.sql`AND (last_updated, id) < (${after.lastUpdated.toISOString()}::timestamptz, ${after.chatId}::uuid)` : Prisma.empty}
    ORDER BY last_updated DESC, id DESC
    LIMIT ${limit + 1}`;
  const chats: SealedChatSummary[] = rows.slice(0, limit).map((r) => ({ chatId: r.id, title: r.title_ciphertext, lastUpdated: r.last_updated, version: r.version }));
  const last = chats.at(-1);
  return { chats, nextCursor: rows.length > limit && last ? encodeCursor(last.lastUpdated, last.chatId) : null };
}

/** @throws AppError not_found:chat */
export async function getSealedChat(input: { userId: string; chatId: string }): Promise<SealedChat> {
  const chatId = input.chatId.toLowerCase();
  if (!LOWERCASE_UUID.test(chatId)) throw chatNotFound();
  const db = await getDb();
  const chat = await db.chat.findFirst({
    where: { id: chatId, userId: input.userId },
    include: { messages: { orderBy: { position: "asc" } } },
  });
  if (!chat) throw chatNotFound();
  return {
    chatId,
    title: chat.titleCiphertext,
    tree: chat.treeCiphertext,
    header: chat.headerCiphertext,
    version: chat.version,
    createdAt: chat.createdAt,
    lastUpdated: chat.lastUpdated,
    messages: chat.messages.map((m) => ({
      position: m.position,
      role: m.role,
      content: m.contentCiphertext,
      attachment: m.attachmentCiphertext,
      steps: m.stepsCiphertext,
    })),
  };
}

export interface SealedChat {
  chatId: string;
  title: Uint8Array | null;
  tree: Uint8Array | null;
  header: Uint8Array | null;
  version: number;
  createdAt: Date;
  lastUpdated: Date;
  messages: { position: number; role: string; content: Uint8Array; attachment: Uint8Array | null; steps: Uint8Array | null }[];
}
