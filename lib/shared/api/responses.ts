import { z } from "@/lib/shared/zod";
import { webSearchRecordSchema } from "@/lib/shared/search/record";
import { roleSchema } from "@/lib/shared/chat/turn-schema";

/** Every failure answers `{ "error": "..." }`: a sentence for people, never user content. */
export const errorSchema = z.object({ error: z.string() }).meta({ id: "Error", description: "Every failure: a message to show." });

export { roleSchema };
const messageSchema = z.object({ role: roleSchema, content: z.string() });

export const contextReportSchema = z
  .object({ omitted_messages: z.number().int(), omitted_documents: z.number().int(), latest_message_cut: z.boolean() })
  .meta({ description: "What the context budget left out." });

export const chatResultSchema = z
  .object({
    messages: z.array(messageSchema),
    chat_id: z.string().nullable(),
    context: contextReportSchema,
    search: webSearchRecordSchema.optional(),
  })
  .meta({ id: "ChatResult" });

const chatHistoryEntrySchema = z.object({
  chat_id: z.string(),
  display_name: z.string().nullable().meta({ description: "Always null: the name is sealed in display_name_ciphertext." }),
  display_name_ciphertext: z.string().nullable().meta({ description: "Base64 vault ciphertext of the display name; null for \"Untitled Chat\"." }),
  last_updated: z.string(),
  version: z.number().int().meta({ description: "The chat header's version (docs/issues.md #21); 0 for a chat saved without a header." }),
});

export const chatHistoryPageSchema = z
  .object({ chat_history: z.array(chatHistoryEntrySchema), next_cursor: z.string().nullable() })
  .meta({ id: "ChatHistoryPage" });

const sealedMessageJson = z.looseObject({
  role: roleSchema,
  content: z.string(),
  position: z.number().int(),
  content_ciphertext: z.string(),
  attachment_ciphertext: z.string().nullable(),
  steps_ciphertext: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Base64 vault ciphertext of an answer's steps (web search, device tools; docs/issues.md #50); null when it has none." }),
});

export const chatSchema = z
  .looseObject({
    chat_id: z.string(),
    display_name: z.string().nullable(),
    display_name_ciphertext: z.string().nullable(),
    tree_ciphertext: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Base64 vault ciphertext of the whole branch tree (edited and regenerated versions, docs/issues.md #9); null when the chat has none." }),
    header_ciphertext: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Base64 of the chat's sealed header (version, message count, hash chain; docs/issues.md #21); null for chats saved before it." }),
    version: z.number().int().optional().meta({ description: "The header's version, in clear for compare-and-set." }),
    created_at: z.string().optional(),
    last_updated: z.string(),
    messages: z.array(sealedMessageJson),
  })
  .meta({ id: "Chat" });

export const chatBatchSchema = z
  .object({
    chats: z.array(chatSchema),
    remaining_chat_ids: z
      .array(z.string())
      .meta({ description: "The caller's chats asked for but left out because the response reached its size bound: ask for them again." }),
  })
  .meta({ id: "ChatBatch" });

export const okSchema = z.object({ ok: z.literal(true) });
/** In development without a mail server (never production) the link is also answered, for /signup to show. */
export const signInEmailSchema = z.object({ ok: z.literal(true), dev_sign_in_link: z.url().optional() });
export const accountStatusSchema = z.object({ account_deleted: z.boolean() });
export const okAccountSchema = z.object({ ok: z.literal(true), account_deleted: z.boolean() });
export const subscriptionSchema = z
  .object({ plan: z.enum(["Free", "Pro"]), status: z.string(), current_period_end: z.string().nullable(), cancel_at_period_end: z.boolean() })
  .meta({ id: "Subscription" });
export const urlSchema = z.object({ url: z.string() });
export const checkoutSessionSchema = z.object({ id: z.string(), url: z.string() });
export const meSchema = z.object({ user: z.object({ email: z.string().nullable() }).nullable(), auth_sync: z.boolean() });
export const countrySchema = z.object({ country_code: z.string().length(2) });
export const healthSchema = z.object({ status: z.literal("ok") });
export const readySchema = z.object({ status: z.literal("ready"), checks: z.record(z.string(), z.string()) });
export const notReadySchema = z.object({ error: z.string(), checks: z.record(z.string(), z.string()) });
export const syncSchema = z.object({ ok: z.literal(true), synced: z.boolean() });
export const webhookSchema = z.object({ received: z.literal(true), outcome: z.string() });

const kdfJson = z.looseObject({
  salt: z.string(),
  argon2: z.object({ memoryKiB: z.number(), iterations: z.number(), parallelism: z.number() }).optional(),
  prf_input: z.string().optional(),
});

export const vaultStateSchema = z
  .object({
    user_id: z.string(),
    exists: z.boolean(),
    history_on: z.boolean(),
    last_unlock_at: z.string().nullable(),
    manifest: z
      .object({ ciphertext: z.string(), version: z.number().int() })
      .nullable()
      .optional()
      .meta({ description: "The sealed manifest of the user's chats and their versions (docs/issues.md #21)." }),
    key_generation: z.number().int().meta({ description: "The generation of the vault key the methods wrap (docs/issues.md #21)." }),
    rotation: z
      .object({ generation: z.number().int(), next_key: z.string() })
      .nullable()
      .meta({ description: "A key rotation under way: the next key wrapped under the current one (docs/issues.md #21)." }),
    methods: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(["passkey", "passphrase", "recovery"]),
        label: z.string().nullable(),
        wrapped_key: z.string(),
        kdf: kdfJson,
        credential_id: z.string().nullable(),
        created_at: z.string(),
        last_used_at: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "VaultState" });
export const vaultDevicesSchema = z
  .object({
    devices: z.array(z.object({ id: z.string(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() })),
  })
  .meta({ id: "VaultDevices" });
export const vaultDeviceCreatedSchema = z.object({ id: z.string(), secret: z.string() });
export const vaultDeviceSecretSchema = z.object({ secret: z.string() });
export const chatSavedSchema = z.object({ chat_id: z.string(), last_updated: z.string() });
export const vaultRotationSchema = z
  .object({ generation: z.number().int().nullable(), remaining_chat_ids: z.array(z.string()) })
  .meta({ id: "VaultRotation" });
export const resealedSchema = z.object({ stored_chat_ids: z.array(z.string()) });
export const webauthnOptionsSchema = z.looseObject({}).meta({ description: "WebAuthn options (@simplewebauthn/server)." });
export const unlockedSchema = z.object({ ok: z.literal(true), method_id: z.string() });
export const historyOnSchema = z.object({ ok: z.literal(true), history_on: z.boolean() });

export const projectEntrySchema = z.object({
  project_id: z.string(),
  sealed: z.string().meta({ description: "Base64 vault ciphertext of the JSON {name, instructions} (lib/browser/vault/projects.ts)." }),
  created_at: z.string(),
});
export const projectListSchema = z
  .object({
    projects: z.array(projectEntrySchema),
    chats: z.array(z.object({ chat_id: z.string(), project_id: z.string() })).meta({ description: "Every chat of the caller that is in a project." }),
  })
  .meta({ id: "ProjectList" });
export const memoryStateSchema = z.object({
  sealed: z.string().nullable().meta({ description: "Base64 vault ciphertext of the JSON {version, enabled, facts} (lib/browser/vault/memory.ts); null when none stored." }),
  version: z.number().int().meta({ description: "The stored version (0: none), for compare-and-set." }),
  updated_at: z.string().nullable(),
});

export const projectDeletedSchema = z.object({ ok: z.literal(true), chats_moved: z.number().int() });

export const csrfSchema = z.object({ csrfToken: z.string().min(1) });
export const signInUrlSchema = z.object({ url: z.string() });
export const signInFormSchema = z.object({
  csrfToken: z.string(),
  callbackUrl: z.string(),
  json: z.literal("true"),
  email: z.string().optional(),
});

