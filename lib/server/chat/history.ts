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

/**
 * Saved history as the API returns it (docs/product.md §3, §7): everything a user wrote is ciphertext
 * made in their browser under the vault key, returned as base64 for the browser to decrypt. The
 * server has no key that opens it, so `display_name` is always null here and `content` always "":
 * the browser fills them from `display_name_ciphertext` and `content_ciphertext`.
 */

const b64 = (bytes: Uint8Array | null) => (bytes ? Buffer.from(bytes).toString("base64") : null);

/** One entry of GET /api/ns/chat_history (docs/product.md §3 Chat without its messages). */
export interface ChatHistoryEntry {
  chat_id: string;
  display_name: null;
  /** Base64 vault ciphertext of the display name (lib/browser/vault/crypto.ts), null for "Untitled Chat". */
  display_name_ciphertext: string | null;
  last_updated: string;
}

/** A page of the user's chats, newest first by last_updated (docs/product.md §2). */
export async function historyPage(userId: string, limit: number, cursor: string | null) {
  return pageJson(await listSealedChats({ userId, limit, cursor }));
}

/**
 * GET /api/ns/chat_history's answer for the caller of `request` as JSON text (historyPage's shape):
 * requireUser and the page in one database round trip for a cookie session, the JSON built by
 * PostgreSQL (lib/server/db/history-json.ts). @throws AppError 401 | 403 | 503 (requireUser), then
 * AppError bad_request:cursor.
 */
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
    // A live session always comes with its page.
    return value!;
  } catch (error) {
    // A bad cursor is found before the session is: the caller's credentials still answer first.
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

/**
 * A chat with its messages as the API returns it (docs/product.md §3 Chat): each message as vault ciphertext with
 * its position, and the sealed branch tree of its edited and regenerated versions.
 */
function chatJson(chat: SealedChat) {
  return {
    chat_id: chat.chatId,
    display_name: null,
    display_name_ciphertext: b64(chat.title),
    /** Base64 vault ciphertext of the branch tree, null for a chat without versions. */
    tree_ciphertext: b64(chat.tree),
    /** The sealed header (version, hash chain) and its version in clear. */
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

/** One chat with its messages (GET /api/ns/chat_history/{chat_id}). @throws AppError "not_found:chat" */
export async function historyChat(userId: string, chatId: string) {
  return chatJson(await getSealedChat({ userId, chatId }));
}

/**
 * GET /api/ns/chat_history/{chat_id}'s answer for the caller of `request` as JSON text (historyChat's
 * shape): requireUser and the chat in one database round trip for a cookie session, the JSON built by
 * PostgreSQL (lib/server/db/history-json.ts). @throws AppError 401 | 403 | 503 (requireUser), then
 * AppError not_found:chat.
 */
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

/**
 * The largest chat_save body (declared Content-Length, bytes) read before the session is checked, so that
 * one statement checks the session and saves. A text turn is a few kilobytes; a larger
 * or undeclared body (documents, an import) is read only once the session passed, as for any route, so
 * that nobody signed out makes the server read more than this.
 */
export const SAVE_IN_ONE_STATEMENT_MAX_BYTES = 1024 * 1024;

/**
 * POST /api/ns/chat_save's work for the caller of `client.request` (the route's context; its body reader reads the browser's sealed turn,
 * stored as it is). For a cookie session and a body of at most SAVE_IN_ONE_STATEMENT_MAX_BYTES, the session
 * is read in the save's own statement (lib/server/db/sealed-chats.ts saveSealedTurnForSession; docs/issues.md #24:
 * one database round trip for the request a saved turn makes after every answer). Otherwise (a bearer
 * token, a larger body, an edit or regenerate with `replace`) the caller is checked first. Answers in
 * the order checking one by one would: 403 cross-site, 401 no live session, 403 deleted account,
 * 413/415/400 body, then the save's own refusals (409 no vault, 404 not the caller's chat, 409 conflicts).
 * @returns the chat's id and its new last_updated. @throws AppError with those statuses.
 */
export async function saveTurnFor(client: ClientExchange): Promise<{ chatId: string; lastUpdated: Date }> {
  const { request } = client;
  assertSameOrigin(request);
  const token = request.headers.has("authorization") ? null : readCookie(request.headers.get("cookie"), sessionCookieName());
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  // Tokens we issue are 43 characters (lib/server/db/sessions.ts).
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
    // The turn's shape is checked before the session is read: the caller's credentials still answer first.
    if (isAppError(error, "bad_request:input")) await requireUser(request);
    throw error;
  }
}

/** A validated chat_save body. */
type ChatSaveBody = z.output<typeof api.chatSave.body>;

/** A chat_save body as the data layer takes it (without the saver and `replace`). */
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
