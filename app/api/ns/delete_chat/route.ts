import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { DELETE_CHAT_MAX_BODY_BYTES, deleteChatBodySchema } from "@/lib/chat/history-schema";
import { deleteChat } from "@/lib/db/queries";
import { ApiError, errorResponse, readJsonBody } from "@/lib/http";

/** DELETE /api/ns/delete_chat `{ chat_id }` (spec §7): deletes one of the caller's chats; 404 otherwise. */
export async function DELETE(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const { chat_id } = await readJsonBody(request, deleteChatBodySchema, DELETE_CHAT_MAX_BODY_BYTES);
    if (!(await deleteChat({ userId: user.id, chatId: chat_id }))) throw new ApiError(404, "Chat not found.");
    return Response.json({ ok: true });
  } catch (error) {
    return errorResponse(error, "delete_chat");
  }
}
