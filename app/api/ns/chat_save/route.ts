import { chatSaveRoute } from "@/lib/server/chat/routes";

/**
 * POST /api/ns/chat_save: store a turn the browser sealed under the vault key; the
 * handler lives in lib/server/chat/routes.ts, which server.mjs's hot path calls too.
 */
export const POST = chatSaveRoute;
