import "server-only";
import type { z } from "@/lib/shared/zod";
import { api } from "@/lib/shared/api/contract";
import { readCookie, sessionCookieName } from "@/lib/server/auth/cookies";
import { assertSameOrigin, requireUser, requireUserWith } from "@/lib/server/auth/session";
import { getSealedChat, listSealedChats, saveSealedTurn, saveSealedTurnForSession, type SealedChat } from "@/lib/server/db/queries";
import { chatJsonForSession, historyPageJsonForSession } from "@/lib/server/db/history-json";
import { chatNotFound } from "@/lib/server/db/errors";
import { isAppError } from "@/lib/shared/errors";
import type { ClientExchange } from "@/lib/server/api/route";
import { toIntegrityWrite, toSealedMessage } from "@/lib/server/vault/server";

// History is vault ciphertext (docs/product.md §3): `display_name` is null and `content` "" here.

const b64 = (bytes: Uint8Array | null) => (bytes ? Buffer.from(bytes).toString("base64") : null);

export interface ChatHistoryEntry {
  chat_id: string;
  display_name: null;
  display_name_ciphertext: string | null;
  last_updated: string;
}

export async function historyPage(userId: string, limit: number, cursor: string | null) {
  return pageJson(await listSealedChats({ userId, limit, cursor }));
}

/** GET /api/ns/chat_history's JSON text. @throws AppError 401, 403, 503, 400 */
export async function historyPageFor(request: Request, limit: number, cursor: string | null): Promise<string> {
  try {
    const { value } = await requireUserWith(
      request,
      async (sessionTokenHash, now) => {
        const page = await historyPageJsonForSession({ sessionTokenHash, now, limit, cursor });
        return { session: page.session, value: page.json };
      },
      async (user) => JSON.stringify(await historyPage(user.id, limit, cursor)),
    );
    return value!;
  } catch (error) {
    // A bad cursor is found before the session: the credentials still answer first.
    if (isAppError(error, "bad_request:cursor")) await requireUser(request);
    throw error;
  }
}

function pageJson(page: Awaited<ReturnType<typeof listSealedChats>>) {
  const chat_history: ChatHistoryEntry[] = page.chats.map((c) => ({
    chat_id: c.chatId,
    display_name: null,
    display_name_ciphertext: b64(c.title),
    last_updated: c.lastUpdated.toISOString(),
    version: c.version,
  }));
  return { chat_history, next_cursor: page.nextCursor };
}

function chatJson(chat: SealedChat) {
  return {
    chat_id: chat.chatId,
    display_name: null,
    display_name_ciphertext: b64(chat.title),
    tree_ciphertext: b64(chat.tree),
    header_ciphertext: b64(chat.header),
    version: chat.version,
    created_at: chat.createdAt.toISOString(),
    last_updated: chat.lastUpdated.toISOString(),
    messages: chat.messages.map((m) => ({
      role: m.role as "user" | "assistant" | "system",
      content: "",
      position: m.position,
      content_ciphertext: b64(m.content) ?? "",
      attachment_ciphertext: b64(m.attachment),
      steps_ciphertext: b64(m.steps),
    })),
  };
}

export async function historyChat(userId: string, chatId: string) {
  return chatJson(await getSealedChat({ userId, chatId }));
}

/** GET /api/ns/chat_history/{chat_id}'s JSON text. @throws AppError 401, 403, 404, 503 */
export async function historyChatFor(request: Request, chatId: string): Promise<string> {
  const { value } = await requireUserWith(
    request,
    async (sessionTokenHash, now) => {
      const read = await chatJsonForSession({ sessionTokenHash, now, chatId });
      return { session: read.session, value: read.json };
    },
    async (user) => JSON.stringify(await historyChat(user.id, chatId)),
  );
  if (value === null) throw chatNotFound();
  return value;
}

/** The largest chat_save body read before the session is checked (bytes). */
export const SAVE_IN_ONE_STATEMENT_MAX_BYTES = 1024 * 1024;

/** POST /api/ns/chat_save, in one statement for a cookie session (docs/issues.md #24). @throws AppError */
export async function saveTurnFor(client: ClientExchange): Promise<{ chatId: string; lastUpdated: Date }> {
  const { request } = client;
  assertSameOrigin(request);
  const token = request.headers.has("authorization") ? null : readCookie(request.headers.get("cookie"), sessionCookieName());
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (!token || token.length > 256 || !(declared <= SAVE_IN_ONE_STATEMENT_MAX_BYTES)) {
    const user = await requireUser(request);
    const body = await client.readBody(api.chatSave.body, api.chatSave.maxBytes ?? 1024);
    return { chatId: body.chat_id, ...(await saveSealedTurn({ ...toTurn(body), userId: user.id, replace: body.replace })) };
  }
  const read = await client.readBody(api.chatSave.body, SAVE_IN_ONE_STATEMENT_MAX_BYTES).then(
    (body) => ({ body, error: null }),
    (error: unknown) => ({ body: null, error }),
  );
  if (!read.body) {
    await requireUser(request);
    throw read.error;
  }
  const body = read.body;
  if (body.replace) {
    const user = await requireUser(request);
    return { chatId: body.chat_id, ...(await saveSealedTurn({ ...toTurn(body), userId: user.id, replace: true })) };
  }
  try {
    const { value } = await requireUserWith(
      request,
      (sessionTokenHash, now) => saveSealedTurnForSession(sessionTokenHash, now, toTurn(body)),
      async (user) => {
        const saved = await saveSealedTurn({ ...toTurn(body), userId: user.id });
        return () => saved;
      },
    );
    return { chatId: body.chat_id, ...value() };
  } catch (error) {
    if (isAppError(error, "bad_request:input")) await requireUser(request);
    throw error;
  }
}

type ChatSaveBody = z.output<typeof api.chatSave.body>;

function toTurn(body: ChatSaveBody) {
  return {
    chatId: body.chat_id,
    create: body.create,
    title: body.title_ciphertext,
    firstPosition: body.first_position,
    messages: body.messages.map(toSealedMessage),
    tree: body.tree_ciphertext,
    createdAt: body.created_at,
    lastUpdated: body.last_updated,
    integrity: toIntegrityWrite(body.integrity),
  };
}
