import { z } from "zod";
import { MAX_PAGE_SIZE } from "@/lib/db/queries";

/**
 * Request schemas of the saved-history endpoints (spec §7). Shared by the route handlers and the
 * OpenAPI document (lib/openapi), so both describe the same objects.
 */

/** GET /api/ns/chat_history?limit=&cursor= (query parameters, so numbers arrive as text). */
export const chatHistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  cursor: z.string().max(200).nullable().default(null),
});

/** DELETE /api/ns/delete_chat `{ chat_id }`. */
export const deleteChatBodySchema = z.object({ chat_id: z.string().min(1).max(100) });

/** Bytes of a delete_chat body. */
export const DELETE_CHAT_MAX_BODY_BYTES = 4096;
