import { historyChatFor } from "@/lib/chat/history";
import { errorResponse } from "@/lib/http";

/** GET /api/ns/chat_history/{chat_id}: one saved chat with its messages; 404 when not the caller's. */
export async function GET(request: Request, ctx: RouteContext<"/api/ns/chat_history/[chatId]">): Promise<Response> {
  try {
    const { chatId } = await ctx.params;
    // Session and chat in one database round trip, the JSON text made by the database (issue 12).
    return new Response(await historyChatFor(request, chatId), {
      headers: { "Content-Type": "application/json", "Cache-Control": "private, no-store" },
    });
  } catch (error) {
    return errorResponse(error, "chat_history");
  }
}
