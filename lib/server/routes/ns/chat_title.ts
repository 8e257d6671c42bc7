import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { renameSealedChat } from "@/lib/server/db/chat-title";
import { chatNotFound } from "@/lib/server/db/errors";
import { toIntegrityWrite } from "@/lib/server/vault/server";

/**
 * PATCH /api/ns/chat_title `{ chat_id, title_ciphertext }` (rename a chat): stores the new
 * display name the browser sealed under the vault key; the server never sees it in clear. The chat
 * keeps its place in the list (last_updated unchanged). 404 when the chat is not the caller's. `integrity`
 * the new header and manifest, compare-and-set (409 when another device wrote first).
 */
export const PATCH = route(api.chatTitle, async ({ user, body }) => {
  if (!(await renameSealedChat({ userId: user.id, chatId: body.chat_id, title: body.title_ciphertext, integrity: toIntegrityWrite(body.integrity) }))) throw chatNotFound();
  return reply(api.chatTitle, { ok: true });
});
