import type { ZodOpenApiPathsObject } from "zod-openapi";
import { created, operation, pathsOf } from "./helpers";
import { api } from "@/lib/shared/api/contract";
import { MAX_REMEMBERED_DEVICES } from "@/lib/shared/vault/schemas";

/** The vault endpoints and /api/ns/chat_save. */
export function vaultPaths(): ZodOpenApiPathsObject {
  const tags = ["vault"];
  return pathsOf([
    operation(api.chatSave, {
      operationId: "saveSealedTurn",
      tags: ["chat"],
      summary:
        "Store a turn the browser sealed under the vault key (append, or replace from a position after an edit or regenerate, with the sealed branch tree); 409 without a vault, at a stale position, or for a chat id the caller already holds (ids are unique per user: another user's id is free)",
      errors: [404, 409],
    }),
    operation(api.vaultGet, { operationId: "getVault", tags, summary: "The caller's vault: unlock methods with wrapped keys only" }),
    operation(api.vaultCreate, {
      operationId: "createVault",
      tags,
      summary: "Create the vault with its first unlock methods (one a recovery code); 400 for a passphrase wrap below the Argon2id floor (64 MiB, 3 passes); 409 when it exists",
      responses: created(api.vaultCreate),
      errors: [409],
    }),
    operation(api.vaultPatch, { operationId: "setHistoryOn", tags, summary: "Remember the Save history toggle; 409 without a vault", errors: [409] }),
    operation(api.vaultAddMethod, {
      operationId: "addVaultMethod",
      tags,
      summary: "Add an unlock method (wrapped in the browser); 400 for a passphrase wrap below the Argon2id floor (64 MiB, 3 passes); 409 without a vault",
      responses: created(api.vaultAddMethod, "Added."),
      errors: [409],
    }),
    operation(api.vaultReplaceMethod, {
      operationId: "replaceVaultMethod",
      tags,
      summary:
        "Replace one of the caller's unlock methods by a new one of the same kind, in one transaction (a passphrase wrapped again with today's Argon2id parameters); 400 below the Argon2id floor or for another kind, 404 when not the caller's",
      errors: [404, 409],
    }),
    operation(api.vaultRemoveMethod, { operationId: "removeVaultMethod", tags, summary: "Remove an unlock method (not the last one)", errors: [404] }),
    // 404: options to unlock asked by an account without a passkey.
    operation(api.vaultPasskey, { operationId: "passkeyOptions", tags, summary: "WebAuthn options for a passkey ceremony (challenge kept 5 minutes)", errors: [404, 409] }),
    operation(api.vaultUnlock, {
      operationId: "recordVaultUnlock",
      tags,
      summary: "Record an unlock done in the browser (a passkey's assertion is verified)",
      errors: [404, 409],
    }),
    operation(api.vaultDevices, {
      operationId: "listRememberedDevices",
      tags,
      summary: "The remembered devices: name, created, last used; never their secrets",
    }),
    operation(api.vaultDeviceCreate, {
      operationId: "rememberDevice",
      tags,
      summary: `Remember this device: the server keeps a new 32-byte share and answers it once with the device's id; 409 without a vault, 400 past ${MAX_REMEMBERED_DEVICES} devices`,
      responses: created(api.vaultDeviceCreate, "Remembered."),
      errors: [409, 429],
    }),
    operation(api.vaultDeviceRevoke, {
      operationId: "revokeRememberedDevice",
      tags,
      summary: "Revoke a remembered device: its server share is deleted, so the device's copy opens nothing",
      errors: [404, 429],
    }),
    operation(api.vaultDeviceUnlock, {
      operationId: "unlockRememberedDevice",
      tags,
      summary: "The server's share of a remembered device's wrap (recorded as its last use); 404 once revoked",
      errors: [404, 429],
    }),
    operation(api.vaultRotation, {
      operationId: "getVaultKeyRotation",
      tags,
      summary: "The key rotation under way (generation null when none) and the chats still sealed under the old key",
    }),
    operation(api.vaultRotationStart, {
      operationId: "startVaultKeyRotation",
      tags,
      summary:
        "Start rotating the vault key: the next key wrapped under the current one and the new key's unlock methods (passphrase and recovery code; they wait until it finishes); 409 when one is under way or the generation is not the next",
      responses: created(api.vaultRotationStart, "Started."),
      errors: [409],
    }),
    operation(api.vaultRotationChats, {
      operationId: "storeResealedChats",
      tags,
      summary:
        "Chats sealed again under the next key, stored in place (dates, order and versions kept); answers the ids stored (the others changed meanwhile); 409 when no rotation to that generation is under way",
      errors: [409],
    }),
    operation(api.vaultRotationFinish, {
      operationId: "finishVaultKeyRotation",
      tags,
      summary:
        "Finish the rotation once every chat is under the new key: the old unlock methods and remembered devices are deleted (VACUUM), the manifest under the new key is written; 409 while chats are left or the manifest changed",
      errors: [409],
    }),
  ]);
}
