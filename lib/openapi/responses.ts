import { z } from "zod";

/**
 * Response shapes for the OpenAPI document (lib/openapi/document.ts). The handlers build these bodies
 * in code (lib/chat/respond.ts, lib/chat/history.ts, lib/plans.ts); the route tests check them.
 */

/** Every failure answers `{ "error": "..." }` (lib/http.ts): a sentence for people, never user content. */
export const errorSchema = z.object({ error: z.string() }).meta({ id: "Error", description: "Every failure: a message to show." });

const message = z.object({ role: z.enum(["user", "assistant", "system"]), content: z.string() });

/** The chat call's answer (spec §7; lib/chat/respond.ts ChatResult). */
export const chatResultSchema = z
  .object({
    messages: z.array(message),
    chat_id: z.string().nullable(),
    attachment: z.object({}).passthrough().nullable().meta({ description: "What was read of this turn's PDF." }),
    document: z.object({ name: z.string(), text: z.string() }).nullable(),
    context: z.object({}).passthrough().meta({ description: "What the context budget left out." }),
  })
  .meta({ id: "ChatResult" });

export const chatHistoryPageSchema = z
  .object({
    chat_history: z.array(z.object({ chat_id: z.string(), display_name: z.string().nullable(), last_updated: z.string() })),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: "ChatHistoryPage" });

export const chatSchema = z
  .object({
    chat_id: z.string(),
    display_name: z.string().nullable(),
    display_name_ciphertext: z.string().nullable().optional(),
    tree_ciphertext: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Base64 vault ciphertext of the whole branch tree (edited and regenerated versions, issue 9); null when the chat has none." }),
    created_at: z.string().optional(),
    last_updated: z.string(),
    messages: z.array(message),
  })
  .passthrough()
  .meta({ id: "Chat" });

/** POST /api/ns/chat_history/batch (issue 9; lib/chat/history.ts historyBatch). */
export const chatBatchSchema = z
  .object({
    chats: z.array(chatSchema),
    remaining_chat_ids: z
      .array(z.string())
      .meta({ description: "The caller's chats asked for but left out because the response reached its size bound: ask for them again." }),
  })
  .meta({ id: "ChatBatch" });

export const okSchema = z.object({ ok: z.literal(true) });
export const accountStatusSchema = z.object({ account_deleted: z.boolean() });
export const okAccountSchema = z.object({ ok: z.literal(true), account_deleted: z.boolean() });
export const subscriptionSchema = z
  .object({ plan: z.enum(["Free", "Pro"]), status: z.string(), current_period_end: z.string().nullable(), cancel_at_period_end: z.boolean() }).meta({ id: "Subscription" });
export const urlSchema = z.object({ url: z.string() });
export const checkoutSessionSchema = z.object({ id: z.string(), url: z.string() });
export const meSchema = z.object({ user: z.object({ email: z.string() }).nullable() });
export const countrySchema = z.object({ country_code: z.string().length(2) });
export const healthSchema = z.object({ status: z.literal("ok") });
export const readySchema = z.object({ status: z.literal("ready"), checks: z.record(z.string(), z.string()) });
export const notReadySchema = z.object({ error: z.string(), checks: z.record(z.string(), z.string()) });
export const syncSchema = z.object({ ok: z.literal(true), synced: z.boolean() });
export const webhookSchema = z.object({ received: z.literal(true), outcome: z.string() });

/** GET /api/vault and the vault writes (lib/vault/server.ts vaultStateJson): wrapped keys only. */
export const vaultStateSchema = z
  .object({
    user_id: z.string(),
    exists: z.boolean(),
    history_on: z.boolean(),
    last_unlock_at: z.string().nullable(),
    legacy_chats: z.number().int(),
    methods: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(["passkey", "passphrase", "recovery"]),
        label: z.string().nullable(),
        wrapped_key: z.string().nullable(),
        kdf: z.object({}).passthrough(),
        credential_id: z.string().nullable(),
        created_at: z.string(),
        last_used_at: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "VaultState" });
export const chatSavedSchema = z.object({ chat_id: z.string(), last_updated: z.string() });
export const legacyChatsSchema = z.object({
  chats: z.array(
    z.object({
      chat_id: z.string(),
      display_name: z.string().nullable(),
      messages: z.array(z.object({ role: z.string(), content: z.string(), attachment: z.unknown().nullable() })),
    }),
  ),
});
export const legacyReplacedSchema = z.object({ replaced: z.number().int(), data_key_deleted: z.boolean() });
export const webauthnOptionsSchema = z.object({}).passthrough().meta({ description: "WebAuthn options (@simplewebauthn/server)." });
export const unlockedSchema = z.object({ ok: z.literal(true), method_id: z.string() });
export const historyOnSchema = z.object({ ok: z.literal(true), history_on: z.boolean() });
