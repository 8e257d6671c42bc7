import { z } from "zod";
import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { deleteChat } from "@/lib/db/queries";
import { ApiError, errorResponse, readJsonBody } from "@/lib/http";

const body = z.object({ chat_id: z.string().min(1).max(100) });

/** DELETE /api/ns/delete_chat `{ chat_id }` (spec §7): deletes one of the caller's chats; 404 otherwise. */
export async function DELETE(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const { chat_id } = await readJsonBody(request, body, 4096);
    if (!(await deleteChat({ userId: user.id, chatId: chat_id }))) throw new ApiError(404, "Chat not found.");
    return Response.json({ ok: true });
  } catch (error) {
    return errorResponse(error, "delete_chat");
  }
}
