import { requireUser } from "@/lib/auth/session";
import { historyPageFor } from "@/lib/chat/history";
import { chatHistoryQuerySchema } from "@/lib/chat/history-schema";
import { ApiError, errorResponse } from "@/lib/http";

/**
 * GET /api/ns/chat_history?limit=50&cursor=…: the caller's saved chats, newest first by last_updated
 * (spec §2, §7), a page at a time: `{ chat_history: [{ chat_id, display_name, last_updated }], next_cursor }`.
 * Messages come per chat from /api/ns/chat_history/{chat_id}, so a long history loads quickly.
 */
export async function GET(request: Request): Promise<Response> {
  try {
    const params = new URL(request.url).searchParams;
    const parsed = chatHistoryQuerySchema.safeParse({ limit: params.get("limit") ?? undefined, cursor: params.get("cursor") });
    if (!parsed.success) {
      await requireUser(request); // 401/403 come before 400
      throw new ApiError(400, `Invalid request: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`);
    }
    // Session and page in one database round trip, the JSON text made by the database (issue 12).
    return new Response(await historyPageFor(request, parsed.data.limit, parsed.data.cursor), {
      headers: { "Content-Type": "application/json", "Cache-Control": "private, no-store" },
    });
  } catch (error) {
    return errorResponse(error, "chat_history");
  }
}
