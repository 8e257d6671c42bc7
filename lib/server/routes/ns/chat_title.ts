import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { renameSealedChat } from "@/lib/server/db/chat-title";
import { chatNotFound } from "@/lib/server/db/errors";
import { toIntegrityWrite } from "@/lib/server/vault/server";

/** PATCH /api/ns/chat_title: store a display name sealed in the browser; 404 not the caller's, 409 another device first. */
export const PATCH = route(api.chatTitle, async ({ user, body }) => {
  if (!(await renameSealedChat({ userId: user.id, chatId: body.chat_id, title: body.title_ciphertext, integrity: toIntegrityWrite(body.integrity) }))) throw chatNotFound();
  return reply(api.chatTitle, { ok: true });
});
