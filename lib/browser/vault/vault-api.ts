"use client";
import "client-only";

import { useSyncExternalStore } from "react";
import { apiFetch } from "@/lib/browser/api/client";
import type { SealedChatBatchJson, VaultDevicesJson, VaultJson } from "@/lib/shared/api/contract";
import { AppError, isAppError } from "@/lib/shared/errors";
import { weakerThanCurrent } from "@/lib/shared/vault/argon2-params";
import { fromBase64, generateDeviceKey, generateVaultKey, importVaultKey, randomBytes, unwrapForDevice, unwrapNextKey, wrapForDevice } from "./crypto";
import type { CurrentKey, RotationDraft, RotationProgress } from "./rotation";

/** lib/browser/vault/rotation.ts, loaded when a rotation runs (not in /chat's first load). */
const rotation = () => import("./rotation");
import { describeThisDevice, forgetDeviceRecord, forgetSeen, readDevice, readSeen, writeDevice, writeSeen } from "./device-store";
import { removeAllDrafts } from "@/lib/browser/chat/drafts";
import { IntegrityTracker } from "./integrity-tracker";
import { forEachSealedChatBatch } from "./sealed-chat-batches";
import {
  passkeyMethod,
  passphraseMethod,
  recoveryMethod,
  openChat,
  unlockWithPassphrase,
  unlockWithPrf,
  unlockWithRecovery,
  type MethodJson,
} from "./seal";

/**
 * The vault in the browser, as a tiny shared store like lib/browser/account/client.ts; its calls go
 * through the typed API client (lib/browser/api/client.ts): the state
 * from GET /api/vault and, once unlocked, the vault key, kept in this tab's memory only (a reload or
 * sign-out locks, unless this device is remembered: docs/issues.md #21, wrapped under two shares). Every secret (passphrase, recovery code, PRF output, vault key) stays here; the
 * server receives wrapped keys and ciphertext.
 */

export type { SealedChatBatchJson, VaultDevicesJson, VaultJson };

export interface VaultStore {
  /**
   * "loading" until GET /api/vault answered; "error" if it failed; "unlocking" while a remembered
   * device opens the vault without asking.
   */
  status: "loading" | "none" | "locked" | "unlocking" | "unlocked" | "error";
  info: VaultJson | null;
  key: CryptoKey | null;
  /** This browser's remembered-device id when it is remembered and opened the vault (else null). */
  deviceId: string | null;
}

let store: VaultStore = { status: "loading", info: null, key: null, deviceId: null };
// A remembered device is tried once per page load, before the unlock panel is shown.
let deviceTried = false;
let deviceUnlocking = false;
// A key rotation left unfinished is being completed (the vault shows as unlocking meanwhile).
let rotating = false;
// The raw key is needed to wrap it under a new method (Settings); it lives as long as `key`.
let rawKey: Uint8Array<ArrayBuffer> | null = null;
// This device's view of the history's integrity, for as long as the key is held.
let tracker: IntegrityTracker | null = null;
let started = false;
const listeners = new Set<() => void>();

function set(next: Partial<VaultStore>) {
  store = { ...store, ...next };
  if (store.info) store.status = !store.info.exists ? "none" : store.key ? "unlocked" : deviceUnlocking || rotating ? "unlocking" : "locked";
  listeners.forEach((l) => l());
}

/**
 * A user-facing error of a vault action: AppError "bad_request:vault" (the message is shown as is). Refused
 * calls throw the API client's AppError, whose message is the server's sentence, also shown as is.
 */
const actionError = (message: string) => new AppError("bad_request:vault", message);

/** @simplewebauthn/browser, loaded on the first passkey ceremony (not in /chat's first load). */
const webauthn = () => import("@simplewebauthn/browser");

/**
 * Start loading the passkey and passphrase code (WebAuthn client, Argon2id) once a screen that uses it
 * is shown (unlock panel, setup dialog, Security settings), so a tap does not wait on it.
 */
export function preloadVaultMethods(): void {
  void webauthn().catch(() => undefined);
  void import("hash-wasm").catch(() => undefined);
}

/** Load (or reload) the vault state. Failures leave status "error" and are logged by kind only. */
export async function refreshVault(): Promise<void> {
  try {
    const next = await apiFetch("vaultGet");
    const tryDevice = next.exists && !store.key && !deviceTried;
    if (tryDevice) deviceTried = deviceUnlocking = true;
    set({ info: next });
    if (tryDevice) {
      try {
        await unlockRememberedDevice();
      } finally {
        deviceUnlocking = false;
        set({});
      }
    }
  } catch {
    console.error("Failed to load the vault state");
    store = { ...store, status: "error" };
    listeners.forEach((l) => l());
  }
}

/** The vault store, loaded on first use when `signedIn`. */
export function useVault(signedIn: boolean): VaultStore {
  const value = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      if (signedIn && !started) {
        started = true;
        void refreshVault();
      }
      return () => listeners.delete(l);
    },
    () => store,
    () => store,
  );
  return value;
}

/**
 * Hold the opened vault key; with `remember`, remember this device first (a failure is logged, the vault
 * still opens). A key rotation left unfinished is finished first.
 */
async function unlocked(raw: Uint8Array<ArrayBuffer>, remember = false): Promise<void> {
  const pending = info().rotation;
  if (pending) raw = await finishPendingRotation(raw, pending);
  rawKey = raw;
  tracker = await trackerFor(raw);
  if (remember) await rememberThisDevice().catch(() => console.error("Could not remember this device"));
  set({ key: await importVaultKey(raw) });
}

const trackerFor = (raw: Uint8Array<ArrayBuffer>) => {
  const userId = info().user_id;
  return IntegrityTracker.start(raw, userId, { read: () => readSeen(userId), write: (seen) => writeSeen(userId, seen) }, info().key_generation);
};

/**
 * A key rotation left unfinished (the tab closed midway) is finished at the next unlock: the
 * next key opens from its wrap under the current one, the chats left are sealed again, and the old
 * methods go. @returns the key to hold (the next one; the current one when finishing failed, logged).
 */
async function finishPendingRotation(raw: Uint8Array<ArrayBuffer>, pending: { generation: number; next_key: string }): Promise<Uint8Array<ArrayBuffer>> {
  const userId = info().user_id;
  rotating = true;
  set({});
  try {
    const next = await unwrapNextKey(fromBase64(pending.next_key), raw, { userId, generation: pending.generation });
    const current: CurrentKey = { userId, raw, key: await importVaultKey(raw), tracker: await trackerFor(raw) };
    set({ info: await (await rotation()).completeRotation(apiFetch, current, next, pending.generation) });
    await forgetDeviceRecord(userId);
    set({ deviceId: null });
    raw.fill(0);
    return next;
  } catch {
    console.error("Failed to finish the vault key rotation");
    return raw;
  } finally {
    rotating = false;
  }
}

/**
 * Draft "Rotate vault key" (Settings): a new key, a new recovery code (show it once) and, when
 * the vault has a passphrase, a wrap under `passphrase` (the current one or a new one, rated like any).
 * Nothing is sent yet. @throws AppError (locked, weak passphrase)
 */
export async function draftKeyRotation(passphrase: string | null): Promise<RotationDraft> {
  needRaw();
  const v = info();
  const checked = passphrase === null ? null : await checkPassphrase(passphrase);
  return (await rotation()).draftRotation(v.user_id, v.key_generation + 1, generateVaultKey(), checked);
}

/**
 * Rotate the vault key: send the draft, seal every chat again under the new key, finish
 * (the old methods, passkeys included, and the remembered devices are deleted), then hold the new key.
 * Interrupted, it finishes at the next unlock. @throws AppError
 */
export async function rotateVaultKey(draft: RotationDraft, onProgress?: RotationProgress): Promise<void> {
  const userId = info().user_id;
  if (!rawKey || !store.key || !tracker) throw actionError("Unlock your history first.");
  const current: CurrentKey = { userId, raw: rawKey, key: store.key, tracker };
  const { completeRotation, startRotation } = await rotation();
  await startRotation(apiFetch, current, draft);
  set({ info: await completeRotation(apiFetch, current, draft.next, draft.generation, onProgress) });
  await forgetDeviceRecord(userId);
  // Straight from the old key to the new one: the vault never shows as locked in between (the screen
  // that started the rotation stays, with its "done" step).
  const nextKey = await importVaultKey(draft.next);
  const nextTracker = await trackerFor(draft.next);
  rawKey?.fill(0);
  rawKey = draft.next;
  tracker = nextTracker;
  set({ deviceId: null, key: nextKey });
}

/** Forget the vault key (the "Lock" action, and on sign-out). */
export function lockVault(): void {
  rawKey?.fill(0);
  rawKey = null;
  tracker = null;
  set({ key: null });
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
    set({ deviceId: record.deviceId });
    return true;
  } catch {
    await forgetDeviceRecord(userId);
    return false;
  } finally {
    share.fill(0);
  }
}

/**
 * Remember this browser (the "Remember this device" box): the server makes and keeps
 * one share, this browser a non-extractable key; the vault key is wrapped under both and stored in
 * IndexedDB, so a reload or a new tab opens the vault without asking until the device is revoked.
 * @throws AppError (locked, the server refused, or this browser cannot store it).
 */
export async function rememberThisDevice(): Promise<void> {
  const raw = needRaw();
  const userId = info().user_id;
  const { id, secret } = await apiFetch("vaultDeviceCreate", { body: { name: describeThisDevice() } });
  const share = fromBase64(secret);
  try {
    const deviceKey = await generateDeviceKey();
    const wrapped = await wrapForDevice(raw, deviceKey, share, { userId, deviceId: id });
    await writeDevice(userId, { deviceId: id, deviceKey, wrapped });
  } catch {
    await apiFetch("vaultDeviceRevoke", { body: { id } }).catch(() => undefined);
    throw actionError("This browser could not remember the device (its storage is unavailable). Your history is unlocked for this visit.");
  } finally {
    share.fill(0);
  }
  set({ deviceId: id });
}

/** Whether this browser holds a remembered-device record for the signed-in user (sign-out offers to forget it). */
export async function isThisDeviceRemembered(): Promise<boolean> {
  return store.info ? (await readDevice(store.info.user_id)) !== null : false;
}

/** This browser's remembered-device id, read from IndexedDB (Settings marks "This device"). */
export async function thisDeviceId(): Promise<string | null> {
  return store.info ? ((await readDevice(store.info.user_id))?.deviceId ?? null) : null;
}

/**
 * Forget this device: revoke its server share (a 404 means it was already revoked) and delete the
 * local record. @throws AppError when the server could not be reached (the local record is deleted anyway).
 */
export async function forgetThisDevice(): Promise<void> {
  const userId = info().user_id;
  const record = await readDevice(userId);
  await forgetDeviceRecord(userId);
  set({ deviceId: null });
  if (!record) return;
  try {
    await apiFetch("vaultDeviceRevoke", { body: { id: record.deviceId } });
  } catch (error) {
    if (!(error instanceof AppError && error.status === 404)) throw error;
  }
}

/**
 * Delete what this browser keeps under the signed-in user's id (finding 7): the sealed
 * drafts in localStorage, the seen versions and any remembered-device record in IndexedDB. On log out with
 * "Forget this device" and after the account is deleted; `userId` when the vault's state is not loaded.
 */
export async function forgetLocalTraces(userId: string | null = store.info?.user_id ?? null): Promise<void> {
  if (!userId) return;
  removeAllDrafts(userId);
  await forgetSeen(userId);
  await forgetDeviceRecord(userId);
}

/** The remembered devices (Settings). @throws AppError */
export function listRememberedDevices(): Promise<VaultDevicesJson> {
  return apiFetch("vaultDevices");
}

/** Revoke a remembered device (Settings' "Revoke"); this browser's own record goes too when it is this one. @throws AppError */
export async function revokeRememberedDevice(id: string): Promise<VaultDevicesJson> {
  const left = await apiFetch("vaultDeviceRevoke", { body: { id } });
  const userId = info().user_id;
  if ((await readDevice(userId))?.deviceId === id) {
    await forgetDeviceRecord(userId);
    set({ deviceId: null });
  }
  return left;
}

/**
 * The unlocked vault for the saved-chat operations (lib/browser/vault/saved-chats.ts): the key, the user and this
 * device's integrity tracker. @throws AppError "bad_request:vault" when locked.
 */
export function unlockedVault(message = "Unlock your history first."): { key: CryptoKey; userId: string; tracker: IntegrityTracker } {
  if (!store.key || !tracker) throw actionError(message);
  return { key: store.key, userId: info().user_id, tracker };
}

/** Read GET /api/vault again (the manifest changed on another device: docs/issues.md #21). */
export async function reloadVaultInfo(): Promise<VaultJson> {
  const next = await apiFetch("vaultGet");
  set({ info: next });
  return next;
}

function info(): VaultJson {
  if (!store.info) throw actionError("The vault is still loading.");
  return store.info;
}

/** Whether this browser offers WebAuthn at all (PRF support shows only when a passkey is made). */
export function passkeysAvailable(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

type Prf = { enabled?: boolean; results?: { first?: ArrayBuffer | ArrayBufferView } };

function prfBytes(prf: Prf | undefined): Uint8Array<ArrayBuffer> | null {
  const first = prf?.results?.first;
  if (!first) return null;
  return first instanceof ArrayBuffer ? new Uint8Array(first) : new Uint8Array(first.buffer.slice(first.byteOffset, first.byteOffset + first.byteLength) as ArrayBuffer);
}

/** Remove the PRF output from a WebAuthn response before it is sent anywhere. */
function withoutPrf<T extends { clientExtensionResults: object }>(response: T): T {
  const rest = { ...(response.clientExtensionResults as Record<string, unknown>) };
  delete rest.prf;
  return { ...response, clientExtensionResults: rest };
}

/**
 * Register a new passkey with the PRF extension and wrap `raw` under its output. One tap when the
 * authenticator returns PRF results at creation, otherwise a second tap to evaluate it.
 * @throws AppError (cancelled, or no PRF support: use a passphrase).
 */
async function newPasskeyMethod(raw: Uint8Array<ArrayBuffer>, userId: string): Promise<MethodJson> {
  const options = await apiFetch("vaultPasskey", { body: { purpose: "register" } });
  const prfInput = randomBytes(32);
  const optionsJSON = { ...options, extensions: { prf: { eval: { first: prfInput } } } } as never;
  let registration;
  try {
    registration = await (await webauthn()).startRegistration({ optionsJSON });
  } catch {
    throw actionError("The passkey was not created. Please try again, or use a passphrase.");
  }
  const prf = (registration.clientExtensionResults as { prf?: Prf }).prf;
  if (!prf?.enabled) throw actionError("This passkey cannot protect your history (no PRF support). Use a passphrase instead.");
  let output = prfBytes(prf);
  if (!output) {
    try {
      const credential = (await navigator.credentials.get({
        publicKey: {
          challenge: randomBytes(32),
          allowCredentials: [{ type: "public-key", id: fromBase64url(registration.rawId) }],
          userVerification: "required",
          extensions: { prf: { eval: { first: prfInput } } } as AuthenticationExtensionsClientInputs,
        },
      })) as PublicKeyCredential | null;
      output = prfBytes((credential?.getClientExtensionResults() as { prf?: Prf } | undefined)?.prf);
    } catch {
      output = null;
    }
    if (!output) throw actionError("The passkey did not unlock. Please try again, or use a passphrase.");
  }
  const method = await passkeyMethod(raw, userId, output, prfInput, withoutPrf(registration) as never, "Passkey");
  output.fill(0);
  return method;
}

function fromBase64url(s: string): Uint8Array<ArrayBuffer> {
  return fromBase64(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
}

/** What setup made: the recovery code to show once, and the state to create. */
export interface SetupDraft {
  raw: Uint8Array<ArrayBuffer>;
  code: string;
  methods: MethodJson[];
}

/**
 * First step of turning on saved history: a new vault key wrapped by a passkey or a passphrase, and a
 * recovery code. Nothing reaches the server except the passkey ceremony until `commitSetup`.
 * @throws AppError
 */
export async function draftSetup(choice: { kind: "passkey" } | { kind: "passphrase"; passphrase: string }): Promise<SetupDraft> {
  const userId = info().user_id;
  const raw = generateVaultKey();
  const first =
    choice.kind === "passkey" ? await newPasskeyMethod(raw, userId) : await passphraseMethod(raw, userId, await checkPassphrase(choice.passphrase));
  const recovery = await recoveryMethod(raw, userId);
  return { raw, code: recovery.code, methods: [first, recovery.method] };
}

/**
 * The passphrase, when lib/browser/vault/strength.ts accepts it (zxcvbn score ≥ 3 and ≥ 10^10 guesses);
 * checked again here, under the dialogs, so no path wraps the key under a guessable one.
 * @throws AppError "bad_request:vault" with the rating's reason.
 */
async function checkPassphrase(passphrase: string): Promise<string> {
  const { ratePassphraseOffThread } = await import("./strength-client");
  const rating = await ratePassphraseOffThread(passphrase);
  if (!rating.acceptable) throw actionError(rating.reason);
  return passphrase;
}

/** Create the vault from a draft (history on) and unlock it; `remember`: remember this device too. */
export async function commitSetup(draft: SetupDraft, remember = false): Promise<void> {
  const created = await apiFetch("vaultCreate", { body: { methods: draft.methods as never } });
  set({ info: created });
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
      set({ info: await apiFetch("vaultReplaceMethod", { body: { replaces: opened.id, method: method as never } }) });
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

/** Remember the Save history toggle for the account (docs/product.md §4: turning off is immediate). */
export async function setHistoryOn(on: boolean): Promise<void> {
  await apiFetch("vaultPatch", { body: { history_on: on } });
  set({ info: { ...info(), history_on: on } });
}

function needRaw(): Uint8Array<ArrayBuffer> {
  if (!rawKey) throw actionError("Unlock your history first.");
  return rawKey;
}

/** Add a passkey (Settings). */
export async function addPasskey(): Promise<void> {
  const method = await newPasskeyMethod(needRaw(), info().user_id);
  set({ info: await apiFetch("vaultAddMethod", { body: { method: method as never } }) });
}

/** Set a new passphrase, replacing the old one(s). */
export async function changePassphrase(passphrase: string): Promise<void> {
  const old = info().methods.filter((m) => m.kind === "passphrase");
  const method = await passphraseMethod(needRaw(), info().user_id, await checkPassphrase(passphrase));
  set({ info: await apiFetch("vaultAddMethod", { body: { method: method as never } }) });
  for (const m of old) set({ info: await apiFetch("vaultRemoveMethod", { body: { id: m.id } }) });
}

/** Make a new recovery code, replacing the old one; returns it (show once). */
export async function newRecoveryCode(): Promise<string> {
  const old = info().methods.filter((m) => m.kind === "recovery");
  const { code, method } = await recoveryMethod(needRaw(), info().user_id);
  set({ info: await apiFetch("vaultAddMethod", { body: { method: method as never } }) });
  for (const m of old) set({ info: await apiFetch("vaultRemoveMethod", { body: { id: m.id } }) });
  return code;
}

/** Remove an unlock method (the server refuses the last one). */
export async function removeMethod(id: string): Promise<void> {
  set({ info: await apiFetch("vaultRemoveMethod", { body: { id } }) });
}

/** A saved chat decrypted in this browser (for export). */
export type OpenedChat = Awaited<ReturnType<typeof openChat>>;

// Reading saved chats in batches (no key needed: they stay sealed) lives in ./sealed-chat-batches.
export {
  fetchSealedChats,
  forEachSealedChatBatch,
  listSavedChatIds,
  SAVED_CHATS_BATCH,
  SAVED_CHATS_FIRST_BATCH,
  SAVED_CHATS_IN_FLIGHT,
} from "./sealed-chat-batches";

/**
 * Saved chats, fetched in batches and decrypted here (for export), in the order of `chatIds`;
 * chats deleted meanwhile are left out. `onProgress` gets how many ids are settled so far.
 * @throws AppError (locked, network, a chat that fails its integrity check or does not decrypt)
 */
export async function loadSavedChats(chatIds: readonly string[], onProgress?: (done: number) => void): Promise<OpenedChat[]> {
  const key = store.key;
  if (!key) throw actionError("Unlock your history first.");
  const userId = info().user_id;
  const opened = new Map<string, OpenedChat>();
  let done = 0;
  const checker = tracker;
  await forEachSealedChatBatch(chatIds, async (batch, settled) => {
    // Every chat read is checked against its header and the manifest first.
    for (const sealed of batch.chats) {
      const problem = await checker?.checkChat(sealed);
      if (problem) throw actionError(problem);
    }
    try {
      const chats = await Promise.all(batch.chats.map((sealed) => openChat(key, userId, sealed)));
      for (const chat of chats) opened.set(chat.chatId, chat);
    } catch {
      throw actionError("A saved chat could not be decrypted.");
    }
    done += settled.length;
    onProgress?.(done);
  });
  return chatIds.flatMap((id) => opened.get(id.toLowerCase()) ?? []);
}
