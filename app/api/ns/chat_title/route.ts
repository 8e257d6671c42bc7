import { api } from "@/lib/api/contract";
import { reply, route } from "@/lib/api/route";
import { renameSealedChat } from "@/lib/db/chat-title";
import { chatNotFound } from "@/lib/db/errors";

/**
 * PATCH /api/ns/chat_title `{ chat_id, title_ciphertext }` (docs/issues.md #9: rename a chat): stores the new
 * display name the browser sealed under the vault key; the server never sees it in clear. The chat
 * keeps its place in the list (last_updated unchanged). 404 when the chat is not the caller's.
 */
export const PATCH = route(api.chatTitle, { name: "chat_title", auth: "user" }, async ({ user, body }) => {
  if (!(await renameSealedChat({ userId: user.id, chatId: body.chat_id, title: body.title_ciphertext }))) throw chatNotFound();
  return reply(api.chatTitle, { ok: true });
});
