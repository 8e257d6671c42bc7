import { historyChatFor } from "@/lib/chat/history";
import { errorResponse } from "@/lib/http";

/** GET /api/ns/chat_history/{chat_id}: one saved chat with its messages; 404 when not the caller's. */
export async function GET(request: Request, ctx: RouteContext<"/api/ns/chat_history/[chatId]">): Promise<Response> {
  try {
    const { chatId } = await ctx.params;
    // Session and chat in one database round trip (issue 12).
    return Response.json(await historyChatFor(request, chatId), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return errorResponse(error, "chat_history");
  }
}
