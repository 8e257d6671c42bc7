import { z } from "@/lib/shared/zod";
import { ACCOUNT_MAX_BODY_BYTES, createAccountBodySchema, deleteUserBodySchema } from "@/lib/shared/account/schemas";
import { ID_TOKEN_MAX_BODY_BYTES, idTokenBodySchema } from "@/lib/shared/auth/schemas";
import {
  CHAT_BATCH_MAX_BODY_BYTES,
  chatBatchBodySchema,
  chatHistoryQuerySchema,
  CHAT_TITLE_MAX_BODY_BYTES,
  chatTitleBodySchema,
  DELETE_CHAT_MAX_BODY_BYTES,
  deleteChatBodySchema,
} from "@/lib/shared/chat/history-schema";
import {
  SHARE_CREATE_MAX_BODY_BYTES,
  SHARE_DELETE_MAX_BODY_BYTES,
  shareCreateBodySchema,
  shareCreatedSchema,
  shareIdBodySchema,
  shareListSchema,
  sharedSnapshotSchema,
} from "@/lib/shared/share/schemas";
import {
  PROJECT_ID_MAX_BODY_BYTES,
  PROJECT_MAX_BODY_BYTES,
  projectBodySchema,
  projectChatBodySchema,
  projectIdBodySchema,
} from "@/lib/shared/projects/schemas";
import { MEMORY_MAX_BODY_BYTES, memoryPutBodySchema } from "@/lib/shared/memory/schemas";
import { checkoutBodySchema, customerPortalBodySchema, PAYMENT_MAX_BODY_BYTES } from "@/lib/shared/stripe/schemas";
import {
  CHAT_SAVE_MAX_BODY_BYTES,
  chatSaveBodySchema,
  VAULT_MAX_BODY_BYTES,
  vaultAddMethodBodySchema,
  vaultCreateBodySchema,
  vaultDeviceCreateBodySchema,
  vaultDeviceIdBodySchema,
  vaultPasskeyBodySchema,
  vaultPatchBodySchema,
  vaultRemoveMethodBodySchema,
  vaultReplaceMethodBodySchema,
  vaultRotationChatsBodySchema,
  vaultRotationFinishBodySchema,
  vaultRotationStartBodySchema,
  vaultUnlockBodySchema,
} from "@/lib/shared/vault/schemas";

/**
 * The API contract shared by the browser and the server (docs/issues.md #19): every route's method, path, request
 * schema and response schema, in one table (`api` below, grouped by route). The request schemas live next
 * to their domain (lib/server/chat/schema.ts, lib/shared/chat/history-schema.ts, lib/shared/vault/schemas.ts,
 * lib/shared/account/schemas.ts, lib/shared/auth/schemas.ts, lib/shared/stripe/schemas.ts) and are listed here; the response
 * schemas are defined here. Route handlers answer through them (lib/server/api/route.ts types each answer by
 * its route's response), the browser calls them through lib/browser/api/client.ts (which validates every
 * answer), and the OpenAPI document (lib/server/openapi) is generated from these same objects.
 *
 * Browser-safe: no server-only imports. Every failure answers `{ "error": "..." }` (lib/shared/errors.ts).
 */

// ---------------------------------------------------------------------------------------------------
// Response schemas
// ---------------------------------------------------------------------------------------------------

/** Every failure answers `{ "error": "..." }` (lib/shared/errors.ts AppError): a sentence for people, never user content. */
export const errorSchema = z.object({ error: z.string() }).meta({ id: "Error", description: "Every failure: a message to show." });

const roleSchema = z.enum(["user", "assistant", "system"]);
const message = z.object({ role: roleSchema, content: z.string() });

/** What the server's context budget left out of a turn's model input (lib/shared/llm/fit-context.ts). */
export const contextReportSchema = z
  .looseObject({ omitted_messages: z.number().int(), omitted_documents: z.number().int(), latest_message_cut: z.boolean() })
  .meta({ description: "What the context budget left out." });

/** The chat call's answer (docs/product.md §7; lib/server/chat/respond.ts ChatResult): JSON, or the SSE `done` event. */
export const chatResultSchema = z
  .object({
    messages: z.array(message),
    chat_id: z.string().nullable(),
    context: contextReportSchema,
  })
  .meta({ id: "ChatResult" });

/** One entry of GET /api/ns/chat_history: the display name is sealed (vault ciphertext, base64), never in clear. */
export const chatHistoryEntrySchema = z.object({
  chat_id: z.string(),
  display_name: z.string().nullable().meta({ description: "Always null: the name is sealed in display_name_ciphertext." }),
  display_name_ciphertext: z.string().nullable().meta({ description: "Base64 vault ciphertext of the display name; null for \"Untitled Chat\"." }),
  last_updated: z.string(),
  version: z.number().int().meta({ description: "The chat header's version (docs/issues.md #21); 0 for a chat saved without a header." }),
});

export const chatHistoryPageSchema = z
  .object({ chat_history: z.array(chatHistoryEntrySchema), next_cursor: z.string().nullable() })
  .meta({ id: "ChatHistoryPage" });

/** A saved message: content is "" and the text is in content_ciphertext (docs/issues.md #8). */
const sealedMessageJson = z.looseObject({
  role: roleSchema,
  content: z.string(),
  position: z.number().int(),
  content_ciphertext: z.string(),
  attachment_ciphertext: z.string().nullable(),
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

/** POST /api/ns/chat_history/batch (docs/issues.md #9; lib/server/db/history-json.ts sealedChatsJson). */
export const chatBatchSchema = z
  .object({
    chats: z.array(chatSchema),
    remaining_chat_ids: z
      .array(z.string())
      .meta({ description: "The caller's chats asked for but left out because the response reached its size bound: ask for them again." }),
  })
  .meta({ id: "ChatBatch" });

export const okSchema = z.object({ ok: z.literal(true) });
/** docs/issues.md #23: in development without a mail server (never production) the link is also answered, for /signup to show. */
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

/** GET /api/vault and the vault writes (lib/server/vault/server.ts vaultStateJson): wrapped keys only. */
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
/** GET /api/vault/devices and DELETE's answer: the remembered devices (never their secrets). */
export const vaultDevicesSchema = z
  .object({
    devices: z.array(z.object({ id: z.string(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() })),
  })
  .meta({ id: "VaultDevices" });
/** POST /api/vault/devices (201): the new device's id and the server's share, base64 (32 bytes). */
export const vaultDeviceCreatedSchema = z.object({ id: z.string(), secret: z.string() });
/** POST /api/vault/devices/unlock: the server's share of the device's wrap, base64. */
export const vaultDeviceSecretSchema = z.object({ secret: z.string() });
export const chatSavedSchema = z.object({ chat_id: z.string(), last_updated: z.string() });
/** GET /api/vault/rotation (docs/issues.md #21): the rotation under way and the chats still under the old key. */
export const vaultRotationSchema = z
  .object({ generation: z.number().int().nullable(), remaining_chat_ids: z.array(z.string()) })
  .meta({ id: "VaultRotation" });
/** POST /api/vault/rotation/chats: the chats stored (the others changed meanwhile: read and seal them again). */
export const resealedSchema = z.object({ stored_chat_ids: z.array(z.string()) });
export const webauthnOptionsSchema = z.looseObject({}).meta({ description: "WebAuthn options (@simplewebauthn/server)." });
export const unlockedSchema = z.object({ ok: z.literal(true), method_id: z.string() });
export const historyOnSchema = z.object({ ok: z.literal(true), history_on: z.boolean() });

/** One project (docs/issues.md #23): its name and instructions only as the browser's ciphertext. */
export const projectEntrySchema = z.object({
  project_id: z.string(),
  sealed: z.string().meta({ description: "Base64 vault ciphertext of the JSON {name, instructions} (lib/browser/vault/projects.ts)." }),
  created_at: z.string(),
});
/** GET /api/projects: the caller's projects, oldest first, and which of their chats are in one. */
export const projectListSchema = z
  .object({
    projects: z.array(projectEntrySchema),
    chats: z.array(z.object({ chat_id: z.string(), project_id: z.string() })).meta({ description: "Every chat of the caller that is in a project." }),
  })
  .meta({ id: "ProjectList" });
/** GET /api/memory (docs/issues.md #41): the caller's memories as the browser's ciphertext, and its version. */
export const memoryStateSchema = z.object({
  sealed: z.string().nullable().meta({ description: "Base64 vault ciphertext of the JSON {version, enabled, facts} (lib/browser/vault/memory.ts); null when none stored." }),
  version: z.number().int().meta({ description: "The stored version (0: none), for compare-and-set." }),
  updated_at: z.string().nullable(),
});

/** DELETE /api/projects: the chats of the project moved out of it (never deleted). */
export const projectDeletedSchema = z.object({ ok: z.literal(true), chats_moved: z.number().int() });

/** next-auth's GET /api/auth/csrf. */
export const csrfSchema = z.object({ csrfToken: z.string().min(1) });
/** next-auth's POST /api/auth/signin/<provider> with `json: "true"`: where to go next. */
export const signInUrlSchema = z.object({ url: z.string() });
/** A next-auth form post (e-mail or Google sign-in): the fields next-auth reads. */
export const signInFormSchema = z.object({
  csrfToken: z.string(),
  callbackUrl: z.string(),
  json: z.literal("true"),
  email: z.string().optional(),
});

// ---------------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------------

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** One route of the contract. `path` may hold `{param}` segments; `form` bodies are URL-encoded (next-auth). */
export interface ApiRoute {
  method: HttpMethod;
  path: string;
  /** The JSON (or form) body's schema; absent: no body. */
  body?: z.ZodType;
  /** Body bytes the handler accepts (413 above). */
  maxBytes?: number;
  /** The query string's schema. */
  query?: z.ZodType;
  /** The 2xx answer's schema (for a stream: the JSON answer without `Accept: text/event-stream`). */
  response: z.ZodType;
  /** The body is application/x-www-form-urlencoded (next-auth's endpoints). */
  form?: true;
  /** The answer can be a Server-Sent Events stream (the chat calls). */
  stream?: true;
}

/**
 * The chat call's body for the browser's typing (docs/product.md §7). The server validates with
 * `chatRequestSchema(limits)` (lib/server/chat/schema.ts), built per configuration (the limits come from
 * config), which the OpenAPI document uses too.
 */
const chatBodyShape = z.strictObject({
  messages: z.array(
    z.strictObject({
      role: roleSchema,
      // docs/issues.md #23: a user message to a model that reads images carries OpenAI content parts.
      content: z.union([
        z.string(),
        z.array(
          z.discriminatedUnion("type", [
            z.strictObject({ type: z.literal("text"), text: z.string() }),
            z.strictObject({ type: z.literal("image_url"), image_url: z.strictObject({ url: z.string() }) }),
          ]),
        ),
      ]),
    }),
  ),
  model: z.string(),
  document: z.strictObject({ name: z.string(), text: z.string(), truncated: z.boolean().optional() }).nullable().optional(),
  documents: z.array(z.strictObject({ name: z.string(), text: z.string() })).optional(),
  chat_id: z.string().nullable().optional(),
  save_chat: z.boolean().optional(),
});

/** Every route of the API, by name. */
export const api = {
  // next-auth (app/api/auth/[...nextauth]): the calls the browser makes itself.
  authCsrf: { method: "GET", path: "/api/auth/csrf", response: csrfSchema },
  authSignInEmail: { method: "POST", path: "/api/auth/signin/email", body: signInFormSchema, form: true, response: signInEmailSchema },
  authSignInGoogle: { method: "POST", path: "/api/auth/signin/google", body: signInFormSchema, form: true, response: signInUrlSchema },

  authIdToken: { method: "POST", path: "/api/auth/id-token", body: idTokenBodySchema, maxBytes: ID_TOKEN_MAX_BODY_BYTES, response: okAccountSchema },
  authSyncSignedIn: { method: "POST", path: "/api/auth/sync", response: syncSchema },
  authSyncSignedOut: { method: "DELETE", path: "/api/auth/sync", response: syncSchema },

  me: { method: "GET", path: "/api/me", response: meSchema },
  checkAccountStatus: { method: "GET", path: "/api/check_account_status", response: accountStatusSchema },
  checkStripeStatus: { method: "GET", path: "/api/check_stripe_status", response: subscriptionSchema },
  createAccount: { method: "POST", path: "/api/create_account", body: createAccountBodySchema, maxBytes: ACCOUNT_MAX_BODY_BYTES, response: okAccountSchema },
  deleteUser: { method: "POST", path: "/api/delete_user", body: deleteUserBodySchema, maxBytes: ACCOUNT_MAX_BODY_BYTES, response: okSchema },
  getCountry: { method: "GET", path: "/api/get-country", response: countrySchema },

  createCheckoutSession: {
    method: "POST",
    path: "/api/create-checkout-session",
    body: checkoutBodySchema,
    maxBytes: PAYMENT_MAX_BODY_BYTES,
    response: checkoutSessionSchema,
  },
  customerPortal: { method: "POST", path: "/api/customer-portal", body: customerPortalBodySchema, maxBytes: PAYMENT_MAX_BODY_BYTES, response: urlSchema },
  stripeWebhook: { method: "POST", path: "/api/stripe/webhook", response: webhookSchema },

  chatVisitor: { method: "POST", path: "/api/ns/chat", body: chatBodyShape, response: chatResultSchema, stream: true },
  chatSignedIn: { method: "POST", path: "/api/ns/chat_user", body: chatBodyShape, response: chatResultSchema, stream: true },
  chatSave: { method: "POST", path: "/api/ns/chat_save", body: chatSaveBodySchema, maxBytes: CHAT_SAVE_MAX_BODY_BYTES, response: chatSavedSchema },
  chatHistoryList: { method: "GET", path: "/api/ns/chat_history", query: chatHistoryQuerySchema, response: chatHistoryPageSchema },
  chatHistoryGet: { method: "GET", path: "/api/ns/chat_history/{chatId}", response: chatSchema },
  chatHistoryBatch: {
    method: "POST",
    path: "/api/ns/chat_history/batch",
    body: chatBatchBodySchema,
    maxBytes: CHAT_BATCH_MAX_BODY_BYTES,
    response: chatBatchSchema,
  },
  deleteChat: { method: "DELETE", path: "/api/ns/delete_chat", body: deleteChatBodySchema, maxBytes: DELETE_CHAT_MAX_BODY_BYTES, response: okSchema },
  chatTitle: { method: "PATCH", path: "/api/ns/chat_title", body: chatTitleBodySchema, maxBytes: CHAT_TITLE_MAX_BODY_BYTES, response: okSchema },

  vaultGet: { method: "GET", path: "/api/vault", response: vaultStateSchema },
  vaultRotation: { method: "GET", path: "/api/vault/rotation", response: vaultRotationSchema },
  vaultRotationStart: {
    method: "POST",
    path: "/api/vault/rotation",
    body: vaultRotationStartBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.rotationStart,
    response: vaultRotationSchema,
  },
  vaultRotationChats: {
    method: "POST",
    path: "/api/vault/rotation/chats",
    body: vaultRotationChatsBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.rotationChats,
    response: resealedSchema,
  },
  vaultRotationFinish: {
    method: "POST",
    path: "/api/vault/rotation/finish",
    body: vaultRotationFinishBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.rotationFinish,
    response: vaultStateSchema,
  },
  vaultCreate: { method: "POST", path: "/api/vault", body: vaultCreateBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.create, response: vaultStateSchema },
  vaultPatch: { method: "PATCH", path: "/api/vault", body: vaultPatchBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.patch, response: historyOnSchema },
  vaultAddMethod: { method: "POST", path: "/api/vault/methods", body: vaultAddMethodBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.addMethod, response: vaultStateSchema },
  vaultReplaceMethod: {
    method: "PATCH",
    path: "/api/vault/methods",
    body: vaultReplaceMethodBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.replaceMethod,
    response: vaultStateSchema,
  },
  vaultRemoveMethod: {
    method: "DELETE",
    path: "/api/vault/methods",
    body: vaultRemoveMethodBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.removeMethod,
    response: vaultStateSchema,
  },
  vaultPasskey: { method: "POST", path: "/api/vault/passkey", body: vaultPasskeyBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.passkey, response: webauthnOptionsSchema },
  vaultUnlock: { method: "POST", path: "/api/vault/unlock", body: vaultUnlockBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.unlock, response: unlockedSchema },
  vaultDevices: { method: "GET", path: "/api/vault/devices", response: vaultDevicesSchema },
  vaultDeviceCreate: {
    method: "POST",
    path: "/api/vault/devices",
    body: vaultDeviceCreateBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.device,
    response: vaultDeviceCreatedSchema,
  },
  vaultDeviceRevoke: { method: "DELETE", path: "/api/vault/devices", body: vaultDeviceIdBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.device, response: vaultDevicesSchema },
  vaultDeviceUnlock: {
    method: "POST",
    path: "/api/vault/devices/unlock",
    body: vaultDeviceIdBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.device,
    response: vaultDeviceSecretSchema,
  },

  // docs/issues.md #23 ("Share links"): ciphertext only; the key stays in the link's fragment.
  shareCreate: { method: "POST", path: "/api/shares", body: shareCreateBodySchema, maxBytes: SHARE_CREATE_MAX_BODY_BYTES, response: shareCreatedSchema },
  shareList: { method: "GET", path: "/api/shares", response: shareListSchema },
  shareRevoke: { method: "DELETE", path: "/api/shares", body: shareIdBodySchema, maxBytes: SHARE_DELETE_MAX_BODY_BYTES, response: shareListSchema },
  shareGet: { method: "GET", path: "/api/shares/{shareId}", response: sharedSnapshotSchema },
  projectList: { method: "GET", path: "/api/projects", response: projectListSchema },
  projectCreate: { method: "POST", path: "/api/projects", body: projectBodySchema, maxBytes: PROJECT_MAX_BODY_BYTES, response: projectEntrySchema },
  projectUpdate: { method: "PATCH", path: "/api/projects", body: projectBodySchema, maxBytes: PROJECT_MAX_BODY_BYTES, response: okSchema },
  projectDelete: { method: "DELETE", path: "/api/projects", body: projectIdBodySchema, maxBytes: PROJECT_ID_MAX_BODY_BYTES, response: projectDeletedSchema },
  memoryGet: { method: "GET", path: "/api/memory", response: memoryStateSchema },
  memoryPut: { method: "POST", path: "/api/memory", body: memoryPutBodySchema, maxBytes: MEMORY_MAX_BODY_BYTES, response: okSchema },
  projectMoveChat: { method: "PATCH", path: "/api/projects/chat", body: projectChatBodySchema, maxBytes: PROJECT_ID_MAX_BODY_BYTES, response: okSchema },

  health: { method: "GET", path: "/api/health", response: healthSchema },
  ready: { method: "GET", path: "/api/ready", response: readySchema },
  openApiDocument: { method: "GET", path: "/api/openapi.json", response: z.looseObject({}) },
} as const satisfies Record<string, ApiRoute>;

export type Api = typeof api;
export type RouteName = keyof Api;
/** A route's 2xx answer, as the handler builds it. */
export type ResponseOf<R extends ApiRoute> = z.output<R["response"]>;
/** A route's body as the caller sends it (before the server's transforms). */
export type BodyOf<R extends ApiRoute> = R extends { body: z.ZodType } ? z.input<R["body"]> : undefined;

// Types the browser uses, inferred from the schemas above.
export type ChatResult = z.output<typeof chatResultSchema>;
export type ContextReport = z.output<typeof contextReportSchema>;
export type ChatHistoryPage = z.output<typeof chatHistoryPageSchema>;
export type ChatHistoryEntryJson = z.output<typeof chatHistoryEntrySchema>;
export type SealedChatJson = z.output<typeof chatSchema>;
export type SealedChatBatchJson = z.output<typeof chatBatchSchema>;
export type VaultJson = z.output<typeof vaultStateSchema>;
export type VaultDevicesJson = z.output<typeof vaultDevicesSchema>;
export type SubscriptionJson = z.output<typeof subscriptionSchema>;
export type ProjectListJson = z.output<typeof projectListSchema>;
