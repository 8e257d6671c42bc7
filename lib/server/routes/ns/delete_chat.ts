import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { chatNotFound } from "@/lib/server/db/errors";
import { deleteChat } from "@/lib/server/db/queries";
import { toManifestWrite } from "@/lib/server/vault/server";

/** DELETE /api/ns/delete_chat (docs/product.md §7); `manifest` is written in the same transaction (409). 404 otherwise. */
export const DELETE = route(api.deleteChat, async ({ user, body }) => {
  if (!(await deleteChat({ userId: user.id, chatId: body.chat_id, manifest: body.manifest && toManifestWrite(body.manifest) }))) throw chatNotFound();
  return reply(api.deleteChat, { ok: true });
});
