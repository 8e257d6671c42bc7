import { chatSaveRoute } from "@/lib/server/chat/routes";

/**
 * POST /api/ns/chat_save: store a turn the browser sealed under the vault key (docs/issues.md #8); the
 * handler lives in lib/server/chat/routes.ts, which server.mjs's hot path calls too (docs/issues.md #24).
 */
export const POST = chatSaveRoute;
