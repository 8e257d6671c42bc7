import { chatHistoryGetRoute } from "@/lib/server/chat/routes";

/**
 * GET /api/ns/chat_history/{chat_id}: one saved chat with its messages; the handler lives in
 * lib/server/chat/routes.ts, which server.mjs's hot path calls too.
 */
export const GET = chatHistoryGetRoute;
