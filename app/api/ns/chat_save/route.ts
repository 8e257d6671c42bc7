import { api } from "@/lib/api/contract";
import { reply, route } from "@/lib/api/route";
import { saveSealedTurn } from "@/lib/db/queries";
import { toIntegrityWrite, toSealedMessage } from "@/lib/vault/server";

/**
 * POST /api/ns/chat_save: store a turn the browser encrypted under the vault key (docs/issues.md #8), after the
 * answer of /api/ns/chat_user completed. `create: true` makes the chat with the browser-chosen
 * `chat_id`, unique per user (docs/issues.md #22: another user's id is a free one), messages at
 * 0..n-1; otherwise the messages are appended at `first_position`, which must be the chat's next position (409 otherwise: reload and retry); with `replace` (docs/issues.md #9: an edited or
 * regenerated turn) the stored messages from `first_position` on are replaced. `tree_ciphertext` is the
 * sealed branch tree (lib/vault/schemas.ts). 409 without a vault, 404 for a chat that is not the
 * caller's. `integrity` (docs/issues.md #21): the chat's new sealed header and the sealed manifest, each naming
 * the version it replaces (409 conflict:chat_version or conflict:manifest when another device wrote first).
 * Answers `{ chat_id, last_updated }`.
 */
export const POST = route(api.chatSave, { name: "chat_save", auth: "user" }, async ({ user, body }) => {
  const { lastUpdated } = await saveSealedTurn({
    userId: user.id,
    chatId: body.chat_id,
    create: body.create,
    title: body.title_ciphertext,
    firstPosition: body.first_position,
    messages: body.messages.map(toSealedMessage),
    replace: body.replace,
    tree: body.tree_ciphertext,
    createdAt: body.created_at,
    lastUpdated: body.last_updated,
    integrity: toIntegrityWrite(body.integrity),
  });
  return reply(api.chatSave, { chat_id: body.chat_id, last_updated: lastUpdated.toISOString() });
});
