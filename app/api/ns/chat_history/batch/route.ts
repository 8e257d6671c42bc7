import { chatHistoryBatchRoute } from "@/lib/server/chat/routes";

/**
 * POST /api/ns/chat_history/batch: up to 100 of the caller's saved chats, for search and export;
 * the handler lives in lib/server/chat/routes.ts, which server.mjs's hot path calls too.
 */
export const POST = chatHistoryBatchRoute;
