"use client";
import "client-only";

import { apiFetch } from "@/lib/browser/api/client";
import { AppError, isAppError } from "@/lib/shared/errors";
import { weakerThanCurrent } from "@/lib/shared/vault/argon2-params";
import { fromBase64, importVaultKey, unwrapForDevice } from "./crypto";
import { forgetDeviceRecord, readDevice } from "./device-store";
import type { Prf, SetupDraft } from "./methods";
import { passphraseMethod, unlockWithPassphrase, unlockWithPrf, unlockWithRecovery } from "./seal";
import { actionError, holdRawKey, holdTracker, info, setVault, setVaultBusy, setVaultError, trackerFor, vaultSnapshot, type VaultJson } from "./store";

/**
 * Loading the vault and opening it: GET /api/vault, then a remembered device without
 * asking, or the passphrase, the recovery code or a passkey; and creating the vault from a setup draft.
 */

// A remembered device is tried once per page load, before the unlock panel is shown.
let deviceTried = false;

/**
 * Load (or reload) the vault state: `pending` is a GET /api/vault already under way (./use-vault.ts starts it
 * while this module loads), else one is made. Failures leave status "error" and are logged by kind only.
 */
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

/**
 * Hold the opened vault key; with `remember`, remember this device first (a failure is logged, the vault
 * still opens). A key rotation left unfinished is finished first.
 */
async function unlocked(raw: Uint8Array<ArrayBuffer>, remember = false): Promise<void> {
  const pending = info().rotation;
  // Remembering a device, finishing a rotation and passkeys load when used, not in /chat's first load (docs/issues.md #42).
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

/**
 * Open the vault with this browser's remembered-device record: the server's share
 * (POST /api/vault/devices/unlock) and the device's own key open the wrap. A revoked device (404) or a
 * wrap that no longer opens (the vault was set up again) deletes the local record.
 * @returns whether the vault is now unlocked. Never throws: failing, the unlock panel shows as before.
 */
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

/** Create the vault from a draft (./methods.ts draftSetup: history on) and unlock it; `remember`: remember this device too. */
export async function commitSetup(draft: SetupDraft, remember = false): Promise<void> {
  const created = await apiFetch("vaultCreate", { body: { methods: draft.methods as never } });
  setVault({ info: created });
  await unlocked(draft.raw, remember);
}

function wrongSecret(error: unknown, message: string): never {
  if (isAppError(error, "unprocessable:vault_decrypt")) throw actionError(message);
  // A malformed recovery code ("bad_request:recovery_code") keeps its own message.
  throw error;
}

/**
 * Unlock with the passphrase (`remember`: remember this device too). When the wrap it opened was made with weaker Argon2id parameters than today's
 * (lib/shared/vault/argon2-params.ts), the key is wrapped again under the same passphrase with today's and the
 * stored wrap replaced; the vault is unlocked before that starts, and the promise settles once
 * it is done (a failure is logged by kind and tried again at the next unlock).
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
      setVault({ info: await apiFetch("vaultReplaceMethod", { body: { replaces: opened.id, method: method as never } }) });
    } catch {
      console.error("Failed to wrap the vault key again with today's Argon2id parameters");
    }
  }
  raw.fill(0);
}

/** Unlock with the recovery code (`remember`: remember this device too). @throws AppError */
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

/** Unlock with a passkey tap (the PRF output opens the wrap; the server verifies the assertion); `remember` as above. */
export async function unlockPasskey(remember = false): Promise<void> {
  const { prfBytes, webauthn, withoutPrf } = await import("./methods");
  const v = info();
  const passkeys = v.methods.filter((m) => m.kind === "passkey" && m.credential_id && m.kdf.prf_input);
  if (!passkeys.length) throw actionError("No passkey is set up.");
  const options = await apiFetch("vaultPasskey", { body: { purpose: "unlock" } });
  const evalByCredential = Object.fromEntries(passkeys.map((m) => [m.credential_id!, { first: fromBase64(m.kdf.prf_input!) }]));
  let assertion;
  try {
    assertion = await (await webauthn()).startAuthentication({ optionsJSON: { ...options, extensions: { prf: { evalByCredential } } } as never });
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
  await apiFetch("vaultUnlock", { body: { assertion: withoutPrf(assertion) as never } }).catch(() => undefined);
  await refreshVault();
}
