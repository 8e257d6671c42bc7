"use client";
import "client-only";

import { useSyncExternalStore } from "react";
import { apiFetch } from "@/lib/browser/api/client";
import type { SealedChatBatchJson, VaultDevicesJson, VaultJson } from "@/lib/shared/api/contract";
import { AppError } from "@/lib/shared/errors";
import { readSeen, writeSeen } from "./device-store";
import type { IntegrityTracker } from "./integrity-tracker";

/**
 * The vault in the browser, as a tiny shared store like lib/browser/account/client.ts: the state
 * from GET /api/vault and, once unlocked, the vault key, kept in this tab's memory only (a reload or
 * sign-out locks, unless this device is remembered: docs/issues.md #21, wrapped under two shares). Every secret
 * (passphrase, recovery code, PRF output, vault key) stays in this browser; the server receives wrapped keys
 * and ciphertext. The actions on it live beside it: ./unlock.ts (loading, unlocking, setup), ./methods.ts
 * (making and managing unlock methods), ./devices.ts (remembered devices), ./key-rotation.ts and
 * ./saved-chats.ts.
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
// Either shows the vault as "unlocking": a remembered device is being tried, or a key rotation left
// unfinished is being completed.
const busy = { device: false, rotation: false };
// The raw key is needed to wrap it under a new method (Settings); it lives as long as `key`.
let rawKey: Uint8Array<ArrayBuffer> | null = null;
// This device's view of the history's integrity, for as long as the key is held.
let tracker: IntegrityTracker | null = null;
const listeners = new Set<() => void>();

/** Merge `next` into the store, derive its status from the vault state, and tell the subscribers. */
export function setVault(next: Partial<VaultStore>): void {
  store = { ...store, ...next };
  if (store.info) store.status = !store.info.exists ? "none" : store.key ? "unlocked" : busy.device || busy.rotation ? "unlocking" : "locked";
  listeners.forEach((l) => l());
}

/** Mark the store as failed to load (status "error", whatever the state). */
export function setVaultError(): void {
  store = { ...store, status: "error" };
  listeners.forEach((l) => l());
}

/** Show the vault as "unlocking" (or not) while a remembered device or an unfinished rotation opens it. */
export function setVaultBusy(kind: keyof typeof busy, on: boolean): void {
  busy[kind] = on;
}

/** The current store (a snapshot: replaced, never changed in place, on every update). */
export function vaultSnapshot(): VaultStore {
  return store;
}

/** Subscribe to store updates; returns the unsubscribe function. */
export function subscribeVault(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Subscribe a component to the store; `onSubscribe` runs on each subscription (the first load). */
export function useVaultStore(onSubscribe: () => void): VaultStore {
  return useSyncExternalStore(
    (l) => {
      const unsubscribe = subscribeVault(l);
      onSubscribe();
      return unsubscribe;
    },
    vaultSnapshot,
    vaultSnapshot,
  );
}

/**
 * A user-facing error of a vault action: AppError "bad_request:vault" (the message is shown as is). Refused
 * calls throw the API client's AppError, whose message is the server's sentence, also shown as is.
 */
export const actionError = (message: string) => new AppError("bad_request:vault", message);

/** The loaded vault state. @throws AppError "bad_request:vault" while it is still loading. */
export function info(): VaultJson {
  if (!store.info) throw actionError("The vault is still loading.");
  return store.info;
}

/** The held raw vault key. @throws AppError "bad_request:vault" when locked. */
export function needRaw(): Uint8Array<ArrayBuffer> {
  if (!rawKey) throw actionError("Unlock your history first.");
  return rawKey;
}

/** The held raw key, key and tracker, or null when locked (key rotation starts from them). */
export function heldKey(): { raw: Uint8Array<ArrayBuffer>; key: CryptoKey; tracker: IntegrityTracker } | null {
  return rawKey && store.key && tracker ? { raw: rawKey, key: store.key, tracker } : null;
}

/** Hold the raw vault key (until lockVault); the caller zeroes the one it replaces when that is due. */
export function holdRawKey(raw: Uint8Array<ArrayBuffer>): void {
  rawKey = raw;
}

/** Hold `next` as the raw vault key in place of the held one, which is zeroed (key rotation). */
export function replaceRawKey(next: Uint8Array<ArrayBuffer>): void {
  rawKey?.fill(0);
  rawKey = next;
}

/** Hold this device's integrity tracker for the held key. */
export function holdTracker(next: IntegrityTracker): void {
  tracker = next;
}

/** This device's integrity tracker for the vault key `raw` (its seen versions are kept in IndexedDB). */
export async function trackerFor(raw: Uint8Array<ArrayBuffer>): Promise<IntegrityTracker> {
  const userId = info().user_id;
  const keyGeneration = info().key_generation;
  // The integrity code loads with the first unlock, not in /chat's first load (docs/issues.md #42).
  const { IntegrityTracker } = await import("./integrity-tracker");
  return IntegrityTracker.start(raw, userId, { read: () => readSeen(userId), write: (seen) => writeSeen(userId, seen) }, keyGeneration);
}

/** Forget the vault key (the "Lock" action, and on sign-out). */
export function lockVault(): void {
  rawKey?.fill(0);
  rawKey = null;
  tracker = null;
  setVault({ key: null });
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
  setVault({ info: next });
  return next;
}

/** Remember the Save history toggle for the account (docs/product.md §4: turning off is immediate). */
export async function setHistoryOn(on: boolean): Promise<void> {
  await apiFetch("vaultPatch", { body: { history_on: on } });
  setVault({ info: { ...info(), history_on: on } });
}
