import { api } from "@/lib/api/contract";
import { reply, route } from "@/lib/api/route";
import { chatNotFound } from "@/lib/db/errors";
import { deleteChat } from "@/lib/db/queries";

/** DELETE /api/ns/delete_chat `{ chat_id }` (docs/product.md §7): deletes one of the caller's chats; 404 otherwise. */
export const DELETE = route(api.deleteChat, { name: "delete_chat", auth: "user" }, async ({ user, body }) => {
  if (!(await deleteChat({ userId: user.id, chatId: body.chat_id }))) throw chatNotFound();
  return reply(api.deleteChat, { ok: true });
});
