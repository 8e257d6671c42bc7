import { requireUser } from "@/lib/auth/session";
import { historyChat } from "@/lib/chat/history";
import { errorResponse } from "@/lib/http";

/** GET /api/ns/chat_history/{chat_id}: one saved chat with its messages; 404 when not the caller's. */
export async function GET(request: Request, ctx: RouteContext<"/api/ns/chat_history/[chatId]">): Promise<Response> {
  try {
    const user = await requireUser(request);
    const { chatId } = await ctx.params;
    return Response.json(await historyChat(user.id, chatId), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return errorResponse(error, "chat_history");
  }
}
