import { api } from "@/lib/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/api/route";
import { historyBatch } from "@/lib/chat/history";

/**
 * POST /api/ns/chat_history/batch `{ chat_ids }` (docs/issues.md #9: search and export read the whole history in a
 * few requests, not one per chat): up to 100 of the caller's saved chats with their messages, each in the
 * shape of GET /api/ns/chat_history/{chat_id} (ciphertext only), in the order asked:
 * `{ chats, remaining_chat_ids }`. Ids that are not the caller's chats are left out silently; chats left
 * out because the response reached its size bound are in `remaining_chat_ids`, to ask for again.
 * A read, but a POST for its body: same-origin is checked as for writes.
 */
export const POST = route(api.chatHistoryBatch, { name: "chat_history_batch", auth: "user" }, async ({ user, body }) =>
  reply(api.chatHistoryBatch, await historyBatch(user.id, body.chat_ids), { headers: PRIVATE_NO_STORE }),
);
