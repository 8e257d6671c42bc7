import { z } from "@/lib/shared/zod";
import { chatIntegritySchema, manifestWriteSchema, sealed } from "@/lib/shared/vault/schemas";
import { LOWERCASE_UUID, UUID } from "@/lib/shared/uuid";

export const MAX_PAGE_SIZE = 100;

export const chatHistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  cursor: z.string().max(200).nullable().default(null),
});

/** DELETE /api/ns/delete_chat `{ chat_id }` (docs/product.md §7), with the sealed manifest without the chat. */
export const deleteChatBodySchema = z.object({ chat_id: z.string().min(1).max(100), manifest: manifestWriteSchema.optional() }).strict();

export const DELETE_CHAT_MAX_BODY_BYTES = 6 * 1024 * 1024;

export { CHAT_TITLE_MAX_CHARS } from "./title-limit";

export const chatTitleBodySchema = z
  .object({
    chat_id: z.string().regex(LOWERCASE_UUID, "must be a lowercase UUID"),
    title_ciphertext: sealed(1200),
    integrity: chatIntegritySchema.optional(),
  })
  .strict();

export const CHAT_TITLE_MAX_BODY_BYTES = 6 * 1024 * 1024;

export const CHAT_BATCH_MAX_IDS = 100;

export const CHAT_BATCH_MAX_BYTES = 4 * 1024 * 1024;

export const chatBatchBodySchema = z
  .object({
    chat_ids: z
      .array(z.string().regex(UUID, "must be a UUID"))
      .min(1)
      .max(CHAT_BATCH_MAX_IDS),
  })
  .strict();

export const CHAT_BATCH_MAX_BODY_BYTES = 8192;
