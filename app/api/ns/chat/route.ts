import { chatVisitorRoute } from "@/lib/server/chat/routes";

/**
 * POST /api/ns/chat: the visitor chat call (docs/product.md §7); the handler lives in lib/server/chat/routes.ts,
 * which server.mjs's hot path calls too.
 */
export const POST = chatVisitorRoute;
