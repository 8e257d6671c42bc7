import { z } from "zod";
import { methodSchema, sealed, sealedMessageSchema } from "./server";

/**
 * Request schemas of the vault endpoints and /api/ns/chat_save (issue 8): here, not in the route files,
 * so the handlers and the OpenAPI document (lib/openapi) use the same objects. The field schemas
 * (sealed ciphertexts, unlock methods) live in lib/vault/server.ts.
 */

const lowercaseUuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, "must be a lowercase UUID");

/** POST /api/ns/chat_save: one turn sealed under the vault key by the browser. */
export const chatSaveBodySchema = z
  .object({
    chat_id: lowercaseUuid,
    create: z.boolean(),
    title_ciphertext: sealed().nullable().default(null),
    first_position: z.number().int().min(0),
    messages: z.array(sealedMessageSchema).min(1).max(10_000),
  })
  .strict();
export const CHAT_SAVE_MAX_BODY_BYTES = 50 * 1024 * 1024;

/** POST /api/vault `{ methods }`: the vault's first unlock methods (one must be a recovery code). */
export const vaultCreateBodySchema = z.object({ methods: z.array(methodSchema).min(1).max(5) }).strict();
/** PATCH /api/vault `{ history_on }`. */
export const vaultPatchBodySchema = z.object({ history_on: z.boolean() }).strict();
/** POST /api/vault/methods `{ method }`. */
export const vaultAddMethodBodySchema = z.object({ method: methodSchema }).strict();
/** DELETE /api/vault/methods `{ id }`. */
export const vaultRemoveMethodBodySchema = z.object({ id: z.string().uuid() }).strict();
/** POST /api/vault/passkey `{ purpose }`. */
export const vaultPasskeyBodySchema = z.object({ purpose: z.enum(["register", "unlock"]) }).strict();

/** POST /api/vault/unlock: `method_id`, or a passkey's assertion (exactly one). */
export const vaultUnlockBodySchema = z
  .object({
    method_id: z.string().uuid().optional(),
    /** A passkey's assertion for the challenge of POST /api/vault/passkey {purpose:"unlock"}. */
    assertion: z.object({ id: z.string().max(1500), type: z.literal("public-key") }).passthrough().optional(),
  })
  .strict()
  .refine((b) => (b.method_id === undefined) !== (b.assertion === undefined), "send method_id or assertion");

/** POST /api/vault/legacy: legacy chats re-encrypted under the vault key. */
export const vaultLegacyBodySchema = z
  .object({
    chats: z
      .array(
        z
          .object({
            chat_id: z.string().uuid(),
            title_ciphertext: sealed().nullable(),
            messages: z.array(sealedMessageSchema).max(100_000),
          })
          .strict(),
      )
      .max(10_000),
  })
  .strict();

/** Body bytes per vault endpoint. */
export const VAULT_MAX_BODY_BYTES = {
  create: 64 * 1024,
  patch: 1024,
  addMethod: 64 * 1024,
  removeMethod: 1024,
  passkey: 1024,
  unlock: 16 * 1024,
  legacy: 200 * 1024 * 1024,
} as const;
