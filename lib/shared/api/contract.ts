import { z } from "@/lib/shared/zod";
import { chatRequestSchema, DEFAULT_CHAT_LIMITS } from "@/lib/shared/chat/turn-schema";
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
import { audioSecondsSchema, transcriptionQuerySchema, transcriptionSchema } from "@/lib/shared/audio/schemas";
import * as files from "@/lib/shared/projects/file-schemas";
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
import {
  contextReportSchema,
  chatResultSchema,
  chatHistoryPageSchema,
  chatSchema,
  chatBatchSchema,
  okSchema,
  signInEmailSchema,
  accountStatusSchema,
  okAccountSchema,
  subscriptionSchema,
  urlSchema,
  checkoutSessionSchema,
  meSchema,
  countrySchema,
  healthSchema,
  readySchema,
  syncSchema,
  webhookSchema,
  vaultStateSchema,
  vaultDevicesSchema,
  vaultDeviceCreatedSchema,
  vaultDeviceSecretSchema,
  chatSavedSchema,
  vaultRotationSchema,
  resealedSchema,
  webauthnOptionsSchema,
  unlockedSchema,
  historyOnSchema,
  projectEntrySchema,
  projectListSchema,
  projectDeletedSchema,
  memoryStateSchema,
  csrfSchema,
  signInUrlSchema,
  signInFormSchema,
} from "./responses";

export * from "./responses";

// The API contract of browser and server: every route declared once. Handlers, the browser's client and the
// OpenAPI document are derived from it. Browser-safe: no server-only imports.

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * Who a route admits: "optional" a user or a visitor; "session" a user (401, 403 deleted); "in-statement" the
 * session read inside the handler's own statement, in one round trip, refused with the same 401/403.
 */
export type AuthMode = "none" | "optional" | "session" | "in-statement";

/** Per signed-in user, else per client network: `points` per `durationSeconds`. */
export interface RateLimit {
  name: string;
  points: number;
  durationSeconds: number;
}

/** One route: everything about it but its handler. `path` may hold `{param}` segments. */
export interface ApiRoute {
  method: HttpMethod;
  path: string;
  name: string;
  auth: AuthMode;
  /** With auth "session": a deleted account passes. */
  allowDeleted?: true;
  /** false: no same-origin check here (visitor calls, webhooks, routes that check it in their statement). */
  sameOrigin?: false;
  rateLimit?: RateLimit;
  /** Served by server.mjs's hot path as well as by Next. */
  fastPath?: true;
  /** The handler reads the body itself. */
  rawBody?: true;
  /** Absent: no body. */
  body?: z.ZodType;
  /** Bytes (413 above). */
  maxBytes?: number;
  query?: z.ZodType;
  /** The 2xx answer (for a stream: the JSON answer without `Accept: text/event-stream`). */
  response: z.ZodType;
  /** application/x-www-form-urlencoded (next-auth). */
  form?: true;
  /** The answer can be a Server-Sent Events stream. */
  stream?: true;
}

// Types the browser; the server validates with the configured limits.
const chatBodyShape = chatRequestSchema(DEFAULT_CHAT_LIMITS);

export const api = {
  // next-auth: the calls the browser makes itself.
  authCsrf: { method: "GET", path: "/api/auth/csrf", response: csrfSchema, name: "auth", auth: "none", sameOrigin: false },
  authSignInEmail: { method: "POST", path: "/api/auth/signin/email", body: signInFormSchema, form: true, response: signInEmailSchema, name: "auth/signin", auth: "none" },
  authSignInGoogle: { method: "POST", path: "/api/auth/signin/google", body: signInFormSchema, form: true, response: signInUrlSchema, name: "auth/signin", auth: "none" },

  authIdToken: { method: "POST", path: "/api/auth/id-token", body: idTokenBodySchema, maxBytes: ID_TOKEN_MAX_BODY_BYTES, response: okAccountSchema, name: "auth/id-token", auth: "none" },
  authSyncSignedIn: { method: "POST", path: "/api/auth/sync", response: syncSchema, name: "auth/sync", auth: "session", rateLimit: { name: "auth-sync", points: 30, durationSeconds: 60 } },
  authSyncSignedOut: { method: "DELETE", path: "/api/auth/sync", response: syncSchema, name: "auth/sync", auth: "none", rateLimit: { name: "auth-sync", points: 30, durationSeconds: 60 } },

  me: { method: "GET", path: "/api/me", response: meSchema, name: "me", auth: "optional" },
  checkAccountStatus: { method: "GET", path: "/api/check_account_status", response: accountStatusSchema, name: "check_account_status", auth: "session", allowDeleted: true },
  checkStripeStatus: { method: "GET", path: "/api/check_stripe_status", response: subscriptionSchema, name: "check_stripe_status", auth: "session" },
  createAccount: { method: "POST", path: "/api/create_account", body: createAccountBodySchema, maxBytes: ACCOUNT_MAX_BODY_BYTES, response: okAccountSchema, name: "create_account", auth: "session", allowDeleted: true },
  deleteUser: { method: "POST", path: "/api/delete_user", body: deleteUserBodySchema, maxBytes: ACCOUNT_MAX_BODY_BYTES, response: okSchema, name: "delete_user", auth: "session", allowDeleted: true },
  getCountry: { method: "GET", path: "/api/get-country", response: countrySchema, name: "get-country", auth: "none" },

  createCheckoutSession: {
    method: "POST",
    path: "/api/create-checkout-session",
    body: checkoutBodySchema,
    maxBytes: PAYMENT_MAX_BODY_BYTES,
    response: checkoutSessionSchema,
    name: "create-checkout-session",
    auth: "session",
  },
  customerPortal: { method: "POST", path: "/api/customer-portal", body: customerPortalBodySchema, maxBytes: PAYMENT_MAX_BODY_BYTES, response: urlSchema, name: "customer-portal", auth: "session" },
  stripeWebhook: { method: "POST", path: "/api/stripe/webhook", response: webhookSchema, name: "stripe-webhook", auth: "none", sameOrigin: false },

  chatVisitor: { method: "POST", path: "/api/ns/chat", body: chatBodyShape, response: chatResultSchema, stream: true, name: "chat", auth: "none", sameOrigin: false, fastPath: true },
  chatSignedIn: { method: "POST", path: "/api/ns/chat_user", body: chatBodyShape, response: chatResultSchema, stream: true, name: "chat_user", auth: "in-statement", sameOrigin: false, fastPath: true },
  chatSave: { method: "POST", path: "/api/ns/chat_save", body: chatSaveBodySchema, maxBytes: CHAT_SAVE_MAX_BODY_BYTES, response: chatSavedSchema, name: "chat_save", auth: "in-statement", sameOrigin: false, fastPath: true },
  chatHistoryList: { method: "GET", path: "/api/ns/chat_history", query: chatHistoryQuerySchema, response: chatHistoryPageSchema, name: "chat_history", auth: "in-statement", fastPath: true },
  chatHistoryGet: { method: "GET", path: "/api/ns/chat_history/{chatId}", response: chatSchema, name: "chat_history", auth: "in-statement", fastPath: true },
  chatHistoryBatch: {
    method: "POST",
    path: "/api/ns/chat_history/batch",
    body: chatBatchBodySchema,
    maxBytes: CHAT_BATCH_MAX_BODY_BYTES,
    response: chatBatchSchema,
    name: "chat_history_batch",
    auth: "session",
    fastPath: true,
  },
  deleteChat: { method: "DELETE", path: "/api/ns/delete_chat", body: deleteChatBodySchema, maxBytes: DELETE_CHAT_MAX_BODY_BYTES, response: okSchema, name: "delete_chat", auth: "session" },
  chatTitle: { method: "PATCH", path: "/api/ns/chat_title", body: chatTitleBodySchema, maxBytes: CHAT_TITLE_MAX_BODY_BYTES, response: okSchema, name: "chat_title", auth: "session" },

  vaultGet: { method: "GET", path: "/api/vault", response: vaultStateSchema, name: "vault", auth: "session" },
  vaultRotation: { method: "GET", path: "/api/vault/rotation", response: vaultRotationSchema, name: "vault_rotation", auth: "session" },
  vaultRotationStart: {
    method: "POST",
    path: "/api/vault/rotation",
    body: vaultRotationStartBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.rotationStart,
    response: vaultRotationSchema,
    name: "vault_rotation",
    auth: "session",
  },
  vaultRotationChats: {
    method: "POST",
    path: "/api/vault/rotation/chats",
    body: vaultRotationChatsBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.rotationChats,
    response: resealedSchema,
    name: "vault_rotation_chats",
    auth: "session",
  },
  vaultRotationFinish: {
    method: "POST",
    path: "/api/vault/rotation/finish",
    body: vaultRotationFinishBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.rotationFinish,
    response: vaultStateSchema,
    name: "vault_rotation_finish",
    auth: "session",
  },
  vaultCreate: { method: "POST", path: "/api/vault", body: vaultCreateBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.create, response: vaultStateSchema, name: "vault", auth: "session" },
  vaultPatch: { method: "PATCH", path: "/api/vault", body: vaultPatchBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.patch, response: historyOnSchema, name: "vault", auth: "session" },
  vaultAddMethod: { method: "POST", path: "/api/vault/methods", body: vaultAddMethodBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.addMethod, response: vaultStateSchema, name: "vault_methods", auth: "session" },
  vaultReplaceMethod: {
    method: "PATCH",
    path: "/api/vault/methods",
    body: vaultReplaceMethodBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.replaceMethod,
    response: vaultStateSchema,
    name: "vault_methods",
    auth: "session",
  },
  vaultRemoveMethod: {
    method: "DELETE",
    path: "/api/vault/methods",
    body: vaultRemoveMethodBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.removeMethod,
    response: vaultStateSchema,
    name: "vault_methods",
    auth: "session",
  },
  vaultPasskey: { method: "POST", path: "/api/vault/passkey", body: vaultPasskeyBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.passkey, response: webauthnOptionsSchema, name: "vault_passkey", auth: "session" },
  vaultUnlock: { method: "POST", path: "/api/vault/unlock", body: vaultUnlockBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.unlock, response: unlockedSchema, name: "vault_unlock", auth: "session" },
  vaultDevices: { method: "GET", path: "/api/vault/devices", response: vaultDevicesSchema, name: "vault_devices", auth: "session" },
  vaultDeviceCreate: {
    method: "POST",
    path: "/api/vault/devices",
    body: vaultDeviceCreateBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.device,
    response: vaultDeviceCreatedSchema,
    name: "vault_devices",
    auth: "session",
  },
  vaultDeviceRevoke: { method: "DELETE", path: "/api/vault/devices", body: vaultDeviceIdBodySchema, maxBytes: VAULT_MAX_BODY_BYTES.device, response: vaultDevicesSchema, name: "vault_devices", auth: "session" },
  vaultDeviceUnlock: {
    method: "POST",
    path: "/api/vault/devices/unlock",
    body: vaultDeviceIdBodySchema,
    maxBytes: VAULT_MAX_BODY_BYTES.device,
    response: vaultDeviceSecretSchema,
    name: "vault_device_unlock",
    auth: "session",
    rateLimit: { name: "vault-device-unlock", points: 30, durationSeconds: 60 },
  },

  // Ciphertext only; the key stays in the link's fragment.
  shareCreate: { method: "POST", path: "/api/shares", body: shareCreateBodySchema, maxBytes: SHARE_CREATE_MAX_BODY_BYTES, response: shareCreatedSchema, name: "shares", auth: "session", rateLimit: { name: "share-create", points: 30, durationSeconds: 60 } },
  shareList: { method: "GET", path: "/api/shares", response: shareListSchema, name: "shares", auth: "session" },
  shareRevoke: { method: "DELETE", path: "/api/shares", body: shareIdBodySchema, maxBytes: SHARE_DELETE_MAX_BODY_BYTES, response: shareListSchema, name: "shares", auth: "session" },
  shareGet: { method: "GET", path: "/api/shares/{shareId}", response: sharedSnapshotSchema, name: "share_get", auth: "none", rateLimit: { name: "share-get", points: 120, durationSeconds: 60 } },
  projectList: { method: "GET", path: "/api/projects", response: projectListSchema, name: "projects", auth: "session" },
  projectCreate: { method: "POST", path: "/api/projects", body: projectBodySchema, maxBytes: PROJECT_MAX_BODY_BYTES, response: projectEntrySchema, name: "project_create", auth: "session" },
  projectUpdate: { method: "PATCH", path: "/api/projects", body: projectBodySchema, maxBytes: PROJECT_MAX_BODY_BYTES, response: okSchema, name: "project_update", auth: "session" },
  projectDelete: { method: "DELETE", path: "/api/projects", body: projectIdBodySchema, maxBytes: PROJECT_ID_MAX_BODY_BYTES, response: projectDeletedSchema, name: "project_delete", auth: "session" },
  projectMoveChat: { method: "PATCH", path: "/api/projects/chat", body: projectChatBodySchema, maxBytes: PROJECT_ID_MAX_BODY_BYTES, response: okSchema, name: "project_move_chat", auth: "session" },
  // Ciphertext only; ranked in the browser.
  projectFileList: { method: "GET", path: "/api/projects/files", response: files.projectFileListSchema, name: "project_files", auth: "session" },
  projectFileCreate: { method: "POST", path: "/api/projects/files", body: files.projectFileBodySchema, maxBytes: files.PROJECT_FILE_MAX_BODY_BYTES, response: files.projectFileEntrySchema, name: "project_file_create", auth: "session" },
  projectFileReseal: { method: "PATCH", path: "/api/projects/files", body: files.projectFileResealSchema, maxBytes: files.PROJECT_FILE_MAX_BODY_BYTES, response: okSchema, name: "project_file_reseal", auth: "session" },
  projectFileDelete: { method: "DELETE", path: "/api/projects/files", body: files.projectFileIdBodySchema, maxBytes: files.PROJECT_FILE_ID_MAX_BODY_BYTES, response: okSchema, name: "project_file_delete", auth: "session" },
  projectFileGet: { method: "GET", path: "/api/projects/files/{fileId}", response: files.projectFileSchema, name: "project_file", auth: "session" },
  memoryGet: { method: "GET", path: "/api/memory", response: memoryStateSchema, name: "memory", auth: "session" },
  memoryPut: { method: "POST", path: "/api/memory", body: memoryPutBodySchema, maxBytes: MEMORY_MAX_BODY_BYTES, response: okSchema, name: "memory_put", auth: "session" },

  audioTranscriptions: {
    method: "POST",
    path: "/api/audio/transcriptions",
    query: transcriptionQuerySchema,
    response: transcriptionSchema,
    name: "audio_transcriptions",
    auth: "optional",
    rawBody: true,
    rateLimit: { name: "audio-transcriptions", points: 30, durationSeconds: 60 },
  },
  audioSeconds: { method: "GET", path: "/api/audio/seconds", response: audioSecondsSchema, name: "audio_seconds", auth: "optional" },

  // EHBP ciphertext in and out, never parsed here.
  confidentialAttestation: {
    method: "GET",
    path: "/api/confidential/attestation",
    response: z.looseObject({}).meta({ description: "The enclave's attestation document or Tinfoil AttestationBundle, relayed unchanged." }),
    name: "confidential_attestation",
    auth: "none",
    // Each call fetches from the enclave (or GitHub and Sigstore).
    rateLimit: { name: "confidential-attestation", points: 60, durationSeconds: 60 },
  },
  confidentialChat: {
    method: "POST",
    path: "/api/confidential/chat",
    response: z.string().meta({ description: "The enclave's EHBP-encrypted answer, relayed byte for byte." }),
    name: "confidential_chat",
    auth: "in-statement",
    sameOrigin: false,
    rawBody: true,
    stream: true,
    fastPath: true,
  },

  confidentialTranscriptions: {
    method: "POST",
    path: "/api/confidential/audio/transcriptions",
    response: z.string().meta({ description: "The enclave's EHBP-encrypted transcript, relayed byte for byte." }),
    name: "confidential_transcriptions",
    auth: "optional",
    rawBody: true,
    rateLimit: { name: "audio-transcriptions", points: 30, durationSeconds: 60 },
  },

  health: { method: "GET", path: "/api/health", response: healthSchema, name: "health", auth: "none" },
  ready: { method: "GET", path: "/api/ready", response: readySchema, name: "ready", auth: "none" },
  openApiDocument: { method: "GET", path: "/api/openapi.json", response: z.looseObject({}), name: "openapi", auth: "none" },
} as const satisfies Record<string, ApiRoute>;

export type Api = typeof api;
export type RouteName = keyof Api;
/** The routes server.mjs's hot path serves. */
export type FastRouteName = { [K in RouteName]: Api[K] extends { fastPath: true } ? K : never }[RouteName];
export type ResponseOf<R extends ApiRoute> = z.output<R["response"]>;
/** As the caller sends it (before the server's transforms). */
export type BodyOf<R extends ApiRoute> = R extends { body: z.ZodType } ? z.input<R["body"]> : undefined;

export type ChatResult = z.output<typeof chatResultSchema>;
export type ContextReport = z.output<typeof contextReportSchema>;
export type ChatHistoryPage = z.output<typeof chatHistoryPageSchema>;
export type SealedChatJson = z.output<typeof chatSchema>;
export type SealedChatBatchJson = z.output<typeof chatBatchSchema>;
export type VaultJson = z.output<typeof vaultStateSchema>;
export type VaultDevicesJson = z.output<typeof vaultDevicesSchema>;
export type SubscriptionJson = z.output<typeof subscriptionSchema>;
