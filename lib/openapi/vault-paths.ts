import type { ZodOpenApiPathsObject } from "zod-openapi";
import {
  CHAT_SAVE_MAX_BODY_BYTES,
  chatSaveBodySchema,
  VAULT_MAX_BODY_BYTES,
  vaultAddMethodBodySchema,
  vaultCreateBodySchema,
  vaultLegacyBodySchema,
  vaultPasskeyBodySchema,
  vaultPatchBodySchema,
  vaultRemoveMethodBodySchema,
  vaultUnlockBodySchema,
} from "@/lib/vault/schemas";
import { errors, jsonBody, ok, SIGNED_IN } from "./helpers";
import * as r from "./responses";

/**
 * The vault endpoints and /api/ns/chat_save (issue 8: zero-access saved history) for the OpenAPI
 * document; request schemas are the handlers' own objects from lib/vault/schemas.ts.
 */
export function vaultPaths(): ZodOpenApiPathsObject {
  const common = { tags: ["vault"], security: SIGNED_IN };
  const created = (description: string) => ({ "201": { description, content: { "application/json": { schema: r.vaultStateSchema } } } });
  return {
    "/api/ns/chat_save": {
      post: {
        ...common,
        tags: ["chat"],
        operationId: "saveSealedTurn",
        summary: "Store a turn the browser sealed under the vault key (append, or replace from a position after an edit or regenerate, with the sealed branch tree); 409 without a vault or at a stale position",
        "x-max-body-bytes": CHAT_SAVE_MAX_BODY_BYTES,
        requestBody: jsonBody(chatSaveBodySchema, CHAT_SAVE_MAX_BODY_BYTES),
        responses: { ...ok(r.chatSavedSchema), ...errors(400, 401, 403, 404, 409, 413, 415, 503) },
      },
    },
    "/api/vault": {
      get: {
        ...common,
        operationId: "getVault",
        summary: "The caller's vault: unlock methods with wrapped keys only",
        responses: { ...ok(r.vaultStateSchema), ...errors(401, 403, 503) },
      },
      post: {
        ...common,
        operationId: "createVault",
        summary: "Create the vault with its first unlock methods (one a recovery code); 409 when it exists",
        "x-max-body-bytes": VAULT_MAX_BODY_BYTES.create,
        requestBody: jsonBody(vaultCreateBodySchema, VAULT_MAX_BODY_BYTES.create),
        responses: { ...created("Created."), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
      patch: {
        ...common,
        operationId: "setHistoryOn",
        summary: "Remember the Save history toggle; 409 without a vault",
        "x-max-body-bytes": VAULT_MAX_BODY_BYTES.patch,
        requestBody: jsonBody(vaultPatchBodySchema, VAULT_MAX_BODY_BYTES.patch),
        responses: { ...ok(r.historyOnSchema), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
    },
    "/api/vault/methods": {
      post: {
        ...common,
        operationId: "addVaultMethod",
        summary: "Add an unlock method (wrapped in the browser); 409 without a vault",
        "x-max-body-bytes": VAULT_MAX_BODY_BYTES.addMethod,
        requestBody: jsonBody(vaultAddMethodBodySchema, VAULT_MAX_BODY_BYTES.addMethod),
        responses: { ...created("Added."), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
      delete: {
        ...common,
        operationId: "removeVaultMethod",
        summary: "Remove an unlock method (not the last one)",
        "x-max-body-bytes": VAULT_MAX_BODY_BYTES.removeMethod,
        requestBody: jsonBody(vaultRemoveMethodBodySchema, VAULT_MAX_BODY_BYTES.removeMethod),
        responses: { ...ok(r.vaultStateSchema), ...errors(400, 401, 403, 404, 413, 415, 503) },
      },
    },
    "/api/vault/passkey": {
      post: {
        ...common,
        operationId: "passkeyOptions",
        summary: "WebAuthn options for a passkey ceremony (challenge kept 5 minutes)",
        "x-max-body-bytes": VAULT_MAX_BODY_BYTES.passkey,
        requestBody: jsonBody(vaultPasskeyBodySchema, VAULT_MAX_BODY_BYTES.passkey),
        responses: { ...ok(r.webauthnOptionsSchema), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
    },
    "/api/vault/unlock": {
      post: {
        ...common,
        operationId: "recordVaultUnlock",
        summary: "Record an unlock done in the browser (a passkey's assertion is verified)",
        "x-max-body-bytes": VAULT_MAX_BODY_BYTES.unlock,
        requestBody: jsonBody(vaultUnlockBodySchema, VAULT_MAX_BODY_BYTES.unlock),
        responses: { ...ok(r.unlockedSchema), ...errors(400, 401, 403, 404, 409, 413, 415, 503) },
      },
    },
    "/api/vault/legacy": {
      get: {
        ...common,
        operationId: "legacyChats",
        summary: "Chats saved before the vault, decrypted one last time for the browser to re-encrypt; 409 without a vault",
        responses: { ...ok(r.legacyChatsSchema), ...errors(401, 403, 409, 503) },
      },
      post: {
        ...common,
        operationId: "replaceLegacyChats",
        summary: "Replace legacy chats by their re-encrypted versions; the server-held data key goes with the last",
        "x-max-body-bytes": VAULT_MAX_BODY_BYTES.legacy,
        requestBody: jsonBody(vaultLegacyBodySchema, VAULT_MAX_BODY_BYTES.legacy),
        responses: { ...ok(r.legacyReplacedSchema), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
    },
  };
}
