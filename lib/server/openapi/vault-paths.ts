import type { ZodOpenApiPathsObject } from "zod-openapi";
import { errors, jsonBody, ok, SIGNED_IN } from "./helpers";
import { api } from "@/lib/shared/api/contract";
import { MAX_REMEMBERED_DEVICES } from "@/lib/shared/vault/schemas";

/**
 * The vault endpoints and /api/ns/chat_save (docs/issues.md #8: zero-access saved history) for the OpenAPI
 * document; schemas and body limits from the API contract (lib/shared/api/contract.ts).
 */
export function vaultPaths(): ZodOpenApiPathsObject {
  const common = { tags: ["vault"], security: SIGNED_IN };
  const created = (description: string) => ({ "201": { description, content: { "application/json": { schema: api.vaultCreate.response } } } });
  return {
    "/api/ns/chat_save": {
      post: {
        ...common,
        tags: ["chat"],
        operationId: "saveSealedTurn",
        summary: "Store a turn the browser sealed under the vault key (append, or replace from a position after an edit or regenerate, with the sealed branch tree); 409 without a vault, at a stale position, or for a chat id the caller already holds (ids are unique per user: another user's id is free)",
        "x-max-body-bytes": api.chatSave.maxBytes,
        requestBody: jsonBody(api.chatSave.body, api.chatSave.maxBytes),
        responses: { ...ok(api.chatSave.response), ...errors(400, 401, 403, 404, 409, 413, 415, 503) },
      },
    },
    "/api/vault": {
      get: {
        ...common,
        operationId: "getVault",
        summary: "The caller's vault: unlock methods with wrapped keys only",
        responses: { ...ok(api.vaultGet.response), ...errors(401, 403, 503) },
      },
      post: {
        ...common,
        operationId: "createVault",
        summary: "Create the vault with its first unlock methods (one a recovery code); 400 for a passphrase wrap below the Argon2id floor (64 MiB, 3 passes); 409 when it exists",
        "x-max-body-bytes": api.vaultCreate.maxBytes,
        requestBody: jsonBody(api.vaultCreate.body, api.vaultCreate.maxBytes),
        responses: { ...created("Created."), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
      patch: {
        ...common,
        operationId: "setHistoryOn",
        summary: "Remember the Save history toggle; 409 without a vault",
        "x-max-body-bytes": api.vaultPatch.maxBytes,
        requestBody: jsonBody(api.vaultPatch.body, api.vaultPatch.maxBytes),
        responses: { ...ok(api.vaultPatch.response), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
    },
    "/api/vault/methods": {
      post: {
        ...common,
        operationId: "addVaultMethod",
        summary: "Add an unlock method (wrapped in the browser); 400 for a passphrase wrap below the Argon2id floor (64 MiB, 3 passes); 409 without a vault",
        "x-max-body-bytes": api.vaultAddMethod.maxBytes,
        requestBody: jsonBody(api.vaultAddMethod.body, api.vaultAddMethod.maxBytes),
        responses: { ...created("Added."), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
      patch: {
        ...common,
        operationId: "replaceVaultMethod",
        summary:
          "Replace one of the caller's unlock methods by a new one of the same kind, in one transaction (a passphrase wrapped again with today's Argon2id parameters, docs/issues.md #21); 400 below the Argon2id floor or for another kind, 404 when not the caller's",
        "x-max-body-bytes": api.vaultReplaceMethod.maxBytes,
        requestBody: jsonBody(api.vaultReplaceMethod.body, api.vaultReplaceMethod.maxBytes),
        responses: { ...ok(api.vaultReplaceMethod.response), ...errors(400, 401, 403, 404, 409, 413, 415, 503) },
      },
      delete: {
        ...common,
        operationId: "removeVaultMethod",
        summary: "Remove an unlock method (not the last one)",
        "x-max-body-bytes": api.vaultRemoveMethod.maxBytes,
        requestBody: jsonBody(api.vaultRemoveMethod.body, api.vaultRemoveMethod.maxBytes),
        responses: { ...ok(api.vaultRemoveMethod.response), ...errors(400, 401, 403, 404, 413, 415, 503) },
      },
    },
    "/api/vault/passkey": {
      post: {
        ...common,
        operationId: "passkeyOptions",
        summary: "WebAuthn options for a passkey ceremony (challenge kept 5 minutes)",
        "x-max-body-bytes": api.vaultPasskey.maxBytes,
        requestBody: jsonBody(api.vaultPasskey.body, api.vaultPasskey.maxBytes),
        // 404: options to unlock asked by an account without a passkey.
        responses: { ...ok(api.vaultPasskey.response), ...errors(400, 401, 403, 404, 409, 413, 415, 503) },
      },
    },
    "/api/vault/unlock": {
      post: {
        ...common,
        operationId: "recordVaultUnlock",
        summary: "Record an unlock done in the browser (a passkey's assertion is verified)",
        "x-max-body-bytes": api.vaultUnlock.maxBytes,
        requestBody: jsonBody(api.vaultUnlock.body, api.vaultUnlock.maxBytes),
        responses: { ...ok(api.vaultUnlock.response), ...errors(400, 401, 403, 404, 409, 413, 415, 503) },
      },
    },
    "/api/vault/devices": {
      get: {
        ...common,
        operationId: "listRememberedDevices",
        summary: "The remembered devices (docs/issues.md #21): name, created, last used; never their secrets",
        responses: { ...ok(api.vaultDevices.response), ...errors(401, 403, 503) },
      },
      post: {
        ...common,
        operationId: "rememberDevice",
        summary: `Remember this device: the server keeps a new 32-byte share and answers it once with the device's id; 409 without a vault, 400 past ${MAX_REMEMBERED_DEVICES} devices`,
        "x-max-body-bytes": api.vaultDeviceCreate.maxBytes,
        requestBody: jsonBody(api.vaultDeviceCreate.body, api.vaultDeviceCreate.maxBytes),
        responses: {
          "201": { description: "Remembered.", content: { "application/json": { schema: api.vaultDeviceCreate.response } } },
          ...errors(400, 401, 403, 409, 413, 415, 429, 503),
        },
      },
      delete: {
        ...common,
        operationId: "revokeRememberedDevice",
        summary: "Revoke a remembered device: its server share is deleted, so the device's copy opens nothing",
        "x-max-body-bytes": api.vaultDeviceRevoke.maxBytes,
        requestBody: jsonBody(api.vaultDeviceRevoke.body, api.vaultDeviceRevoke.maxBytes),
        responses: { ...ok(api.vaultDeviceRevoke.response), ...errors(400, 401, 403, 404, 413, 415, 429, 503) },
      },
    },
    "/api/vault/devices/unlock": {
      post: {
        ...common,
        operationId: "unlockRememberedDevice",
        summary: "The server's share of a remembered device's wrap (recorded as its last use); 404 once revoked",
        "x-max-body-bytes": api.vaultDeviceUnlock.maxBytes,
        requestBody: jsonBody(api.vaultDeviceUnlock.body, api.vaultDeviceUnlock.maxBytes),
        responses: { ...ok(api.vaultDeviceUnlock.response), ...errors(400, 401, 403, 404, 413, 415, 429, 503) },
      },
    },
    "/api/vault/rotation": {
      get: {
        ...common,
        operationId: "getVaultKeyRotation",
        summary: "The key rotation under way (generation null when none) and the chats still sealed under the old key",
        responses: { ...ok(api.vaultRotation.response), ...errors(401, 403, 503) },
      },
      post: {
        ...common,
        operationId: "startVaultKeyRotation",
        summary: "Start rotating the vault key: the next key wrapped under the current one and the new key's unlock methods (passphrase and recovery code; they wait until it finishes); 409 when one is under way or the generation is not the next",
        "x-max-body-bytes": api.vaultRotationStart.maxBytes,
        requestBody: jsonBody(api.vaultRotationStart.body, api.vaultRotationStart.maxBytes),
        responses: { ...created("Started."), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
    },
    "/api/vault/rotation/chats": {
      post: {
        ...common,
        operationId: "storeResealedChats",
        summary: "Chats sealed again under the next key, stored in place (dates, order and versions kept); answers the ids stored (the others changed meanwhile); 409 when no rotation to that generation is under way",
        "x-max-body-bytes": api.vaultRotationChats.maxBytes,
        requestBody: jsonBody(api.vaultRotationChats.body, api.vaultRotationChats.maxBytes),
        responses: { ...ok(api.vaultRotationChats.response), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
    },
    "/api/vault/rotation/finish": {
      post: {
        ...common,
        operationId: "finishVaultKeyRotation",
        summary: "Finish the rotation once every chat is under the new key: the old unlock methods and remembered devices are deleted (VACUUM), the manifest under the new key is written; 409 while chats are left or the manifest changed",
        "x-max-body-bytes": api.vaultRotationFinish.maxBytes,
        requestBody: jsonBody(api.vaultRotationFinish.body, api.vaultRotationFinish.maxBytes),
        responses: { ...ok(api.vaultRotationFinish.response), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
    },
  };
}
