import { chatHistoryListRoute } from "@/lib/server/chat/routes";

/**
 * GET /api/ns/chat_history: one page of the caller's saved chats (docs/product.md §2, §7); the handler lives in
 * lib/server/chat/routes.ts, which server.mjs's hot path calls too.
 */
export const GET = chatHistoryListRoute;
