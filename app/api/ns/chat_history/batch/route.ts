import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { historyBatch } from "@/lib/chat/history";
import { CHAT_BATCH_MAX_BODY_BYTES, chatBatchBodySchema } from "@/lib/chat/history-schema";
import { errorResponse, readJsonBody } from "@/lib/http";

/**
 * POST /api/ns/chat_history/batch `{ chat_ids }` (issue 9: search and export read the whole history in a
 * few requests, not one per chat): up to 100 of the caller's saved chats with their messages, each in the
 * shape of GET /api/ns/chat_history/{chat_id} (ciphertext only), in the order asked:
 * `{ chats, remaining_chat_ids }`. Ids that are not the caller's chats are left out silently; chats left
 * out because the response reached its size bound are in `remaining_chat_ids`, to ask for again.
 * A read, but a POST for its body: same-origin is checked as for writes.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const { chat_ids } = await readJsonBody(request, chatBatchBodySchema, CHAT_BATCH_MAX_BODY_BYTES);
    return Response.json(await historyBatch(user.id, chat_ids), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return errorResponse(error, "chat_history_batch");
  }
}
