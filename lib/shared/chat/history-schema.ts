import { z } from "@/lib/shared/zod";
import { chatIntegritySchema, manifestWriteSchema, sealed } from "@/lib/shared/vault/schemas";
import { LOWERCASE_UUID, UUID } from "@/lib/shared/uuid";

/**
 * Request schemas of the saved-history endpoints (docs/product.md §7). Shared by the route handlers and the
 * OpenAPI document (lib/server/openapi) through the API contract (lib/shared/api/contract.ts). Browser-safe.
 */

/** Most chats one page of GET /api/ns/chat_history lists (lib/server/db/queries.ts listChats). */
export const MAX_PAGE_SIZE = 100;

/** GET /api/ns/chat_history?limit=&cursor= (query parameters, so numbers arrive as text). */
export const chatHistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  cursor: z.string().max(200).nullable().default(null),
});

/**
 * DELETE /api/ns/delete_chat `{ chat_id }` (docs/product.md §7); a vault browser also sends the sealed manifest
 * without the chat, written in the same transaction.
 */
export const deleteChatBodySchema = z.object({ chat_id: z.string().min(1).max(100), manifest: manifestWriteSchema.optional() }).strict();

/** Bytes of a delete_chat body (with the manifest of a long history). */
export const DELETE_CHAT_MAX_BODY_BYTES = 6 * 1024 * 1024;

export { CHAT_TITLE_MAX_CHARS } from "./title-limit";

/**
 * PATCH /api/ns/chat_title `{ chat_id, title_ciphertext }` (rename): the new display name,
 * sealed in the browser under the vault key (lib/browser/vault/seal.ts sealTitle). 200 characters of UTF-8 are at
 * most 800 bytes, plus the 29 bytes of the format: base64 of at most 1,200 characters.
 */
export const chatTitleBodySchema = z
  .object({
    chat_id: z.string().regex(LOWERCASE_UUID, "must be a lowercase UUID"),
    title_ciphertext: sealed(1200),
    /** The chat's new header (its title hash changed) and the manifest. */
    integrity: chatIntegritySchema.optional(),
  })
  .strict();

/** Bytes of a chat_title body (with the manifest of a long history). */
export const CHAT_TITLE_MAX_BODY_BYTES = 6 * 1024 * 1024;

/** Most chats one POST /api/ns/chat_history/batch asks for. */
export const CHAT_BATCH_MAX_IDS = 100;

/**
 * Ciphertext bytes (titles, trees, messages, attachments) one batch response carries at most, about
 * 5.3 MB of base64; a larger chat still comes alone.
 */
export const CHAT_BATCH_MAX_BYTES = 4 * 1024 * 1024;

/**
 * POST /api/ns/chat_history/batch `{ chat_ids }`: 1 to 100 chat ids (UUIDs, as the list
 * returns them).
 */
export const chatBatchBodySchema = z
  .object({
    chat_ids: z
      .array(z.string().regex(UUID, "must be a UUID"))
      .min(1)
      .max(CHAT_BATCH_MAX_IDS),
  })
  .strict();

/** Bytes of a chat_history/batch body (100 ids of 36 characters, quoted, fit in 4 KB). */
export const CHAT_BATCH_MAX_BODY_BYTES = 8192;
