import "server-only";
import { randomUUID } from "node:crypto";
import { Prisma } from "@/lib/generated/prisma/client";
import { getDb } from "@/lib/db/client";
import { loadDataKey } from "@/lib/db/data-keys";
import { vacuumKeyTables } from "@/lib/db/vault";
import { ChatNotFoundError, InvalidCursorError, InvalidInputError, NoVaultError } from "@/lib/db/errors";
import { DecryptionError, decryptFieldText, encryptField, wipe } from "@/lib/crypto";

/**
 * Data access for saved chats: the one home for reading and writing users' history.
 * Since the vault (issue 8, lib/db/vault.ts and lib/db/sealed-chats.ts, re-exported here) the app saves only chats the browser
 * encrypted under a key the server never holds. The functions below are the server-key format of
 * before (lib/crypto.ts): they remain to read legacy chats once, for their migration into the vault
 * at setup, and for tests that create such legacy chats. No route writes with them any more.
 * Every function scopes by `userId`: another user's chat behaves exactly like a missing one.
 */

export { ensureDataKey, rotateDataKeys, type RotationResult } from "@/lib/db/data-keys";
export * from "@/lib/db/vault";
export * from "@/lib/db/sealed-chats";
export { ChatNotFoundError, InvalidCursorError, InvalidInputError, UserUnavailableError } from "@/lib/db/errors";
export { loadChatPreconditions, type ChatPreconditionInput, type ChatPreconditions } from "@/lib/db/chat-preconditions";

/** Message roles (spec §3). */
export const ROLES = ["user", "assistant", "system"] as const;
export type Role = (typeof ROLES)[number];

/** Extracted text of a PDF sent with a user message. */
export interface Attachment {
  name: string;
  text: string;
}

export interface NewMessage {
  role: Role;
  content: string;
  attachment?: Attachment;
}

export interface ChatMessage extends NewMessage {
  /** 0-based order within the chat. */
  position: number;
  createdAt: Date;
}

export interface ChatSummary {
  chatId: string;
  /** null: show "Untitled Chat" (spec §2). */
  title: string | null;
  lastUpdated: Date;
}

export interface ChatDetail extends ChatSummary {
  messages: ChatMessage[];
}

/** Upper bound of `listChats`'s `limit`. */
export const MAX_PAGE_SIZE = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id as stored and bound into associated data (lowercase), or null when it is no UUID. */
function canonicalChatId(id: string): string | null {
  return typeof id === "string" && UUID.test(id) ? id.toLowerCase() : null;
}

function checkMessages(messages: NewMessage[]): void {
  for (const m of messages) {
    if (!(ROLES as readonly string[]).includes(m.role)) throw new InvalidInputError("Unknown message role.");
    if (typeof m.content !== "string") throw new InvalidInputError("Message content must be a string.");
    if (m.attachment && (typeof m.attachment.name !== "string" || typeof m.attachment.text !== "string")) {
      throw new InvalidInputError("An attachment needs a name and a text.");
    }
  }
}

function encryptMessages(dataKey: Uint8Array, userId: string, chatId: string, messages: NewMessage[], first: number) {
  return messages.map((m, i) => {
    const ctx = { userId, chatId, position: first + i, role: m.role };
    return {
      position: first + i,
      role: m.role,
      contentCiphertext: encryptField(dataKey, { ...ctx, field: "content" }, m.content),
      attachmentCiphertext: m.attachment
        ? encryptField(dataKey, { ...ctx, field: "attachment" }, JSON.stringify({ name: m.attachment.name, text: m.attachment.text }))
        : null,
    };
  });
}

function decryptTitle(dataKey: Uint8Array | null, userId: string, chatId: string, ciphertext: Uint8Array | null) {
  if (ciphertext === null) return null;
  if (!dataKey) throw new DecryptionError("Could not decrypt title: the data key is gone.");
  return decryptFieldText(dataKey, { field: "title", userId, chatId }, ciphertext);
}

/**
 * Save a new chat with its first messages (positions 0..n-1), creating the user's data key if needed.
 * @returns the new chat id (UUID) and its lastUpdated.
 * @throws InvalidInputError (unknown role...), UserUnavailableError (missing or deleted user).
 */
export async function createChat(input: {
  userId: string;
  messages: NewMessage[];
  title?: string | null;
}): Promise<{ chatId: string; lastUpdated: Date }> {
  checkMessages(input.messages);
  const db = await getDb();
  const dataKey = await loadDataKey(db, input.userId, { create: true });
  try {
    // The id is chosen here because the ciphertexts' associated data binds it.
    const chatId = randomUUID();
    const lastUpdated = new Date();
    await db.chat.create({
      data: {
        id: chatId,
        userId: input.userId,
        titleCiphertext:
          input.title == null ? null : encryptField(dataKey, { field: "title", userId: input.userId, chatId }, input.title),
        createdAt: lastUpdated,
        lastUpdated,
        messages: { createMany: { data: encryptMessages(dataKey, input.userId, chatId, input.messages, 0) } },
      },
    });
    return { chatId, lastUpdated };
  } finally {
    wipe(dataKey);
  }
}

/**
 * Prisma's interactive-transaction limits (defaults 2 s to get a connection, 5 s to finish) are too
 * tight for a busy instance: a save failing after the user already read the answer is worse than a
 * slower save, and under event-loop lag a timeout can fire after PostgreSQL already committed, telling
 * the client "failed" for a turn that was saved (bench/load.ts counted this at 200 concurrent streams).
 */
const SAVE_TRANSACTION = { maxWait: 10_000, timeout: 20_000 } as const;

/**
 * Append messages after the chat's last position and bump lastUpdated. Concurrent appends to one
 * chat are serialised by a row lock.
 * @throws ChatNotFoundError when the chat does not exist or is not the user's; InvalidInputError.
 */
export async function appendMessages(input: {
  userId: string;
  chatId: string;
  messages: NewMessage[];
}): Promise<{ lastUpdated: Date }> {
  const { userId, messages } = input;
  checkMessages(messages);
  if (!messages.length) throw new InvalidInputError("Nothing to append.");
  const chatId = canonicalChatId(input.chatId);
  if (!chatId) throw new ChatNotFoundError();
  const db = await getDb();
  const dataKey = await loadDataKey(db, userId);
  if (!dataKey) throw new ChatNotFoundError();
  try {
    const lastUpdated = new Date();
    // PGlite has one connection: inside the transaction only `tx` may be used.
    await db.$transaction(async (tx) => {
      const owned = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM chats WHERE id = ${chatId}::uuid AND user_id = ${userId} FOR UPDATE`;
      if (!owned.length) throw new ChatNotFoundError();
      const last = await tx.message.aggregate({ where: { chatId }, _max: { position: true } });
      const first = (last._max.position ?? -1) + 1;
      const rows = encryptMessages(dataKey, userId, chatId, messages, first).map((m) => ({ ...m, chatId }));
      await tx.message.createMany({ data: rows });
      await tx.chat.update({ where: { id: chatId }, data: { lastUpdated } });
    }, SAVE_TRANSACTION);
    return { lastUpdated };
  } finally {
    wipe(dataKey);
  }
}

/**
 * One chat with all its messages, decrypted, in position order.
 * @throws ChatNotFoundError (missing or another user's), DecryptionError (altered or moved data).
 */
export async function getChat(input: { userId: string; chatId: string }): Promise<ChatDetail> {
  const { userId } = input;
  const chatId = canonicalChatId(input.chatId);
  if (!chatId) throw new ChatNotFoundError();
  const db = await getDb();
  const chat = await db.chat.findFirst({
    where: { id: chatId, userId },
    include: { messages: { orderBy: { position: "asc" } } },
  });
  if (!chat) throw new ChatNotFoundError();
  const dataKey = await loadDataKey(db, userId);
  try {
    if (!dataKey) throw new DecryptionError("Could not decrypt chat: the data key is gone.");
    return {
      chatId,
      title: decryptTitle(dataKey, userId, chatId, chat.titleCiphertext),
      lastUpdated: chat.lastUpdated,
      messages: chat.messages.map((row) => {
        const base = { userId, chatId, position: row.position, role: row.role };
        const message: ChatMessage = {
          position: row.position,
          role: row.role as Role,
          content: decryptFieldText(dataKey, { ...base, field: "content" }, row.contentCiphertext),
          createdAt: row.createdAt,
        };
        if (row.attachmentCiphertext) {
          message.attachment = parseAttachment(
            decryptFieldText(dataKey, { ...base, field: "attachment" }, row.attachmentCiphertext),
          );
        }
        return message;
      }),
    };
  } finally {
    if (dataKey) wipe(dataKey);
  }
}

function parseAttachment(json: string): Attachment {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    // V8's SyntaxError quotes the input: never let it near a log.
    throw new DecryptionError("Malformed attachment.");
  }
  const { name, text } = (value ?? {}) as Partial<Attachment>;
  if (typeof name !== "string" || typeof text !== "string") throw new DecryptionError("Malformed attachment.");
  return { name, text };
}

function encodeCursor(lastUpdated: Date, chatId: string): string {
  return Buffer.from(`${lastUpdated.getTime()}.${chatId}`).toString("base64url");
}

function decodeCursor(cursor: string): { lastUpdated: Date; chatId: string } {
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/i.exec(Buffer.from(cursor, "base64url").toString());
  const chatId = match && canonicalChatId(match[2]!);
  if (!match || !chatId) throw new InvalidCursorError();
  return { lastUpdated: new Date(Number(match[1])), chatId };
}

/**
 * A page of the user's chats, newest first (lastUpdated desc, then id desc), titles decrypted.
 * Keyset pagination: pass `nextCursor` back as `cursor`; null means the last page.
 * @param limit 1..MAX_PAGE_SIZE.
 * @throws InvalidInputError (limit), InvalidCursorError, DecryptionError.
 */
export async function listChats(input: {
  userId: string;
  limit: number;
  cursor?: string | null;
}): Promise<{ chats: ChatSummary[]; nextCursor: string | null }> {
  const { userId, limit } = input;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new InvalidInputError(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  }
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const db = await getDb();
  // A row comparison, unlike the equivalent OR, is an index condition on (user_id, last_updated
  // DESC, id DESC): deep pages cost the same as the first. The timestamp travels as ISO text so
  // the session time zone cannot shift it.
  const rows = await db.$queryRaw<{ id: string; title_ciphertext: Uint8Array | null; last_updated: Date }[]>`
    SELECT id::text AS id, title_ciphertext, last_updated FROM chats
    WHERE user_id = ${userId}
    ${after ? Prisma.sql`AND (last_updated, id) < (${after.lastUpdated.toISOString()}::timestamptz, ${after.chatId}::uuid)` : Prisma.empty}
    ORDER BY last_updated DESC, id DESC
    LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  const dataKey = page.some((r) => r.title_ciphertext) ? await loadDataKey(db, userId) : null;
  try {
    const chats = page.map((r) => ({
      chatId: r.id,
      title: decryptTitle(dataKey, userId, r.id, r.title_ciphertext),
      lastUpdated: r.last_updated,
    }));
    const last = chats[chats.length - 1];
    return { chats, nextCursor: rows.length > limit && last ? encodeCursor(last.lastUpdated, last.chatId) : null };
  } finally {
    if (dataKey) wipe(dataKey);
  }
}

/**
 * Whether `chatId` is one of the user's chats, without decrypting anything (checked before a paid
 * model call, so a foreign or unknown id is refused early).
 */
export async function isOwnChat(input: { userId: string; chatId: string }): Promise<boolean> {
  const chatId = canonicalChatId(input.chatId);
  if (!chatId) return false;
  const db = await getDb();
  return (await db.chat.count({ where: { id: chatId, userId: input.userId } })) > 0;
}

/** Delete one of the user's chats with its messages. @returns false when missing or another user's. */
export async function deleteChat(input: { userId: string; chatId: string }): Promise<boolean> {
  const chatId = canonicalChatId(input.chatId);
  if (!chatId) return false;
  const db = await getDb();
  const { count } = await db.chat.deleteMany({ where: { id: chatId, userId: input.userId } });
  return count > 0;
}

/**
 * Account deletion, in one transaction: delete the user's vault and its wrapped keys, the legacy data key (so ciphertext
 * left behind, in dead tuples, WAL or a later dump, can no longer be decrypted) and all their chats,
 * and set `deletedAt` (kept if already set). The user row stays so the app can show "Account Deleted"
 * (spec §2). Backups taken before still hold the wrapped key until they expire.
 * @returns how many chats were deleted.
 */
export async function shredUserData(userId: string): Promise<{ chatsDeleted: number }> {
  const db = await getDb();
  const [, , , , chats] = await db.$transaction([
    db.dataKey.deleteMany({ where: { userId } }),
    db.vaultMethod.deleteMany({ where: { userId } }),
    db.vault.deleteMany({ where: { userId } }),
    db.webauthnChallenge.deleteMany({ where: { userId } }),
    db.chat.deleteMany({ where: { userId } }),
    db.user.updateMany({ where: { id: userId, deletedAt: null }, data: { deletedAt: new Date() } }),
  ]);
  // The wrapped keys must not stay readable in dead tuples of the key tables (issue 8).
  await vacuumKeyTables();
  return { chatsDeleted: chats.count };
}

/**
 * The chats still under the server-held key, decrypted by the server one last time for the user's
 * own browser to re-encrypt under the vault key (issue 8 migration). Only callable with a vault.
 * @throws NoVaultError
 */
export async function legacyChatsForMigration(userId: string) {
  const db = await getDb();
  if (!(await db.vault.count({ where: { userId } }))) throw new NoVaultError();
  const ids = await db.chat.findMany({ where: { userId, vault: false }, select: { id: true }, orderBy: { lastUpdated: "desc" } });
  const chats = [];
  for (const { id } of ids) chats.push(await getChat({ userId, chatId: id }));
  return chats;
}
