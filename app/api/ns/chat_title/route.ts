import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { CHAT_TITLE_MAX_BODY_BYTES, chatTitleBodySchema } from "@/lib/chat/history-schema";
import { renameSealedChat } from "@/lib/db/chat-title";
import { ApiError, errorResponse, readJsonBody } from "@/lib/http";

/**
 * PATCH /api/ns/chat_title `{ chat_id, title_ciphertext }` (issue 9: rename a chat): stores the new
 * display name the browser sealed under the vault key; the server never sees it in clear. The chat
 * keeps its place in the list (last_updated unchanged). 404 when the chat is not the caller's.
 */
export async function PATCH(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const { chat_id, title_ciphertext } = await readJsonBody(request, chatTitleBodySchema, CHAT_TITLE_MAX_BODY_BYTES);
    if (!(await renameSealedChat({ userId: user.id, chatId: chat_id, title: title_ciphertext }))) throw new ApiError(404, "Chat not found.");
    return Response.json({ ok: true });
  } catch (error) {
    return errorResponse(error, "chat_title");
  }
}
