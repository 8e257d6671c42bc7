import { api } from "@/lib/api/contract";
import { PRIVATE_NO_STORE, route } from "@/lib/api/route";
import { historyChatFor } from "@/lib/chat/history";

/**
 * GET /api/ns/chat_history/{chat_id}: one saved chat with its messages; 404 when not the caller's.
 * Session and chat in one database round trip, the JSON text (contract chatSchema) made by the database
 * (docs/issues.md #12), so the wrapper's own auth step is off.
 */
export const GET = route<typeof api.chatHistoryGet, "none", { chatId: string }>(
  api.chatHistoryGet,
  { name: "chat_history", auth: "none" },
  async ({ request, params }) =>
    new Response(await historyChatFor(request, params.chatId), { headers: { "Content-Type": "application/json", ...PRIVATE_NO_STORE } }),
);
