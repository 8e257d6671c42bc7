"use client";
import "client-only";

import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { apiFetch } from "@/lib/browser/api/client";
import { AppError, isAppError } from "@/lib/shared/errors";
import { weakerThanCurrent } from "@/lib/shared/vault/argon2-params";
import { fromBase64, importVaultKey, unwrapForDevice } from "./crypto";
import { forgetDeviceRecord, readDevice } from "./device-store";
import type { Prf, SetupDraft } from "./methods";
import { passphraseMethod, unlockWithPassphrase, unlockWithPrf, unlockWithRecovery } from "./seal";
import { actionError, holdRawKey, holdTracker, info, setVault, setVaultBusy, setVaultError, trackerFor, vaultSnapshot, type VaultJson } from "./store";

// A remembered device is tried once per page load, before the unlock panel is shown.
let deviceTried = false;

/** Load (or reload) the vault state; `pending` is a GET /api/vault already under way. Failures leave status "error". */
export async function refreshVault(pending?: Promise<VaultJson>): Promise<void> {
  try {
    const next = await (pending ?? apiFetch("vaultGet"));
    const tryDevice = next.exists && !vaultSnapshot().key && !deviceTried;
    if (tryDevice) {
      deviceTried = true;
      setVaultBusy("device", true);
    }
    setVault({ info: next });
    if (tryDevice) {
      try {
        await unlockRememberedDevice();
      } finally {
        setVaultBusy("device", false);
        setVault({});
      }
    }
  } catch {
    console.error("Failed to load the vault state");
    setVaultError();
  }
}

async function unlocked(raw: Uint8Array<ArrayBuffer>, remember = false): Promise<void> {
  const pending = info().rotation;
  // These load when used, not in /chat's first load.
  if (pending) raw = await (await import("./key-rotation")).finishPendingRotation(raw, pending);
  holdRawKey(raw);
  holdTracker(await trackerFor(raw));
  if (remember) {
    await import("./devices")
      .then((devices) => devices.rememberThisDevice())
      .catch(() => console.error("Could not remember this device"));
  }
  setVault({ key: await importVaultKey(raw) });
}

// Never throws: failing, the unlock panel shows as before. A revoked device (404) or a dead wrap deletes the local record.
async function unlockRememberedDevice(): Promise<boolean> {
  const userId = info().user_id;
  const record = await readDevice(userId);
  if (!record) return false;
  let share: Uint8Array<ArrayBuffer>;
  try {
    share = fromBase64((await apiFetch("vaultDeviceUnlock", { body: { id: record.deviceId } })).secret);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) await forgetDeviceRecord(userId);
    return false;
  }
  try {
    await unlocked(await unwrapForDevice(record.wrapped, record.deviceKey, share, { userId, deviceId: record.deviceId }));
    setVault({ deviceId: record.deviceId });
    return true;
  } catch {
    await forgetDeviceRecord(userId);
    return false;
  } finally {
    share.fill(0);
  }
}

export async function commitSetup(draft: SetupDraft, remember = false): Promise<void> {
  const created = await apiFetch("vaultCreate", { body: { methods: draft.methods } });
  setVault({ info: created });
  await unlocked(draft.raw, remember);
}

function wrongSecret(error: unknown, message: string): never {
  if (isAppError(error, "unprocessable:vault_decrypt")) throw actionError(message);
  throw error;
}

/**
 * Unlock with the passphrase; a wrap below today's Argon2id parameters is made again once unlocked.
 * @throws AppError "That passphrase is not right…"
 */
export async function unlockPassphrase(passphrase: string, remember = false): Promise<void> {
  const v = info();
  let result;
  try {
    result = await unlockWithPassphrase(v.methods, v.user_id, passphrase);
  } catch (error) {
    wrongSecret(error, "That passphrase is not right. Nothing was changed: try again.");
  }
  // A copy: "Lock" zeroes the store's key, and the wrap below must never be made of zeroes.
  const raw = result.raw.slice();
  await unlocked(result.raw, remember);
  void apiFetch("vaultUnlock", { body: { method_id: result.methodId } }).catch(() => undefined);
  const opened = v.methods.find((m) => m.id === result.methodId);
  if (opened && weakerThanCurrent(opened.kdf.argon2)) {
    try {
      const method = await passphraseMethod(raw, v.user_id, passphrase);
      setVault({ info: await apiFetch("vaultReplaceMethod", { body: { replaces: opened.id, method: method } }) });
    } catch {
      console.error("Failed to wrap the vault key again with today's Argon2id parameters");
    }
  }
  raw.fill(0);
}

/** @throws AppError */
export async function unlockRecovery(code: string, remember = false): Promise<void> {
  const v = info();
  let result;
  try {
    result = await unlockWithRecovery(v.methods, v.user_id, code);
  } catch (error) {
    wrongSecret(error, "That recovery code is not right. Nothing was changed: check it and try again.");
  }
  await unlocked(result.raw, remember);
  void apiFetch("vaultUnlock", { body: { method_id: result.methodId } }).catch(() => undefined);
}

export async function unlockPasskey(remember = false): Promise<void> {
  const { prfBytes, webauthn, withoutPrf } = await import("./methods");
  const v = info();
  const passkeys = v.methods.filter((m) => m.kind === "passkey" && m.credential_id && m.kdf.prf_input);
  if (!passkeys.length) throw actionError("No passkey is set up.");
  const options = await apiFetch("vaultPasskey", { body: { purpose: "unlock" } });
  const evalByCredential = Object.fromEntries(passkeys.map((m) => [m.credential_id!, { first: fromBase64(m.kdf.prf_input!) }]));
  let assertion;
  try {
    const extensions: AuthenticationExtensionsClientInputs = { prf: { evalByCredential } };
    // Made by @simplewebauthn/server; the contract checks only that it is an object.
    // eslint-disable-next-line no-restricted-syntax
    const optionsJSON = { ...(options as unknown as PublicKeyCredentialRequestOptionsJSON), extensions };
    assertion = await (await webauthn()).startAuthentication({ optionsJSON });
  } catch {
    throw actionError("The passkey did not unlock. Please try again, or use your passphrase or recovery code.");
  }
  const output = prfBytes((assertion.clientExtensionResults as { prf?: Prf }).prf);
  const method = passkeys.find((m) => m.credential_id === assertion.id);
  if (!output || !method) throw actionError("This passkey cannot unlock your history. Use your passphrase or recovery code.");
  let result;
  try {
    result = await unlockWithPrf(method, v.user_id, output);
  } catch (error) {
    wrongSecret(error, "This passkey cannot unlock your history. Use your passphrase or recovery code.");
  } finally {
    output.fill(0);
  }
  await unlocked(result.raw, remember);
  await apiFetch("vaultUnlock", { body: { assertion: withoutPrf(assertion) } }).catch(() => undefined);
  await refreshVault();
}
