import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { storeResealedChats } from "@/lib/server/db/queries";
import { toSealedMessage } from "@/lib/server/vault/server";

/** POST /api/vault/rotation/chats: chats resealed under the next key; one changed meanwhile is skipped. 409 with no rotation. */
export const POST = route(api.vaultRotationChats, async ({ user, body }) => {
  const stored = await storeResealedChats(
    user.id,
    body.generation,
    body.chats.map((c) => ({
      chatId: c.chat_id,
      baseVersion: c.base_version,
      title: c.title_ciphertext,
      tree: c.tree_ciphertext,
      header: c.header_ciphertext,
      messages: c.messages.map(toSealedMessage),
    })),
  );
  return reply(api.vaultRotationChats, { stored_chat_ids: stored });
});
