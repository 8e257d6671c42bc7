import { api } from "@/lib/api/contract";
import { PRIVATE_NO_STORE, route } from "@/lib/api/route";
import { requireUser } from "@/lib/auth/session";
import { historyPageFor } from "@/lib/chat/history";
import { invalidRequest } from "@/lib/http";

/**
 * GET /api/ns/chat_history?limit=50&cursor=…: the caller's saved chats, newest first by last_updated
 * (docs/product.md §2, §7), a page at a time: `{ chat_history: [{ chat_id, display_name, display_name_ciphertext,
 * last_updated }], next_cursor }`. Messages come per chat from /api/ns/chat_history/{chat_id}, so a long
 * history loads quickly. Session and page in one database round trip, the JSON text made by the database
 * (docs/issues.md #12), so the wrapper's own auth step is off.
 */
export const GET = route(api.chatHistoryList, { name: "chat_history", auth: "none" }, async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const parsed = api.chatHistoryList.query.safeParse({ limit: params.get("limit") ?? undefined, cursor: params.get("cursor") });
  if (!parsed.success) {
    await requireUser(request); // 401/403 come before 400
    throw invalidRequest(parsed.error);
  }
  return new Response(await historyPageFor(request, parsed.data.limit, parsed.data.cursor), {
    headers: { "Content-Type": "application/json", ...PRIVATE_NO_STORE },
  });
});
