"use client";
import "client-only";

import { useSyncExternalStore } from "react";
import { apiFetch } from "@/lib/browser/api/client";
import type { SealedChatBatchJson, VaultDevicesJson, VaultJson } from "@/lib/shared/api/contract";
import { AppError } from "@/lib/shared/errors";
import { readSeen, writeSeen } from "./device-store";
import type { IntegrityTracker } from "./integrity-tracker";

// The vault state and, once unlocked, the key, in this tab's memory only.

export type { SealedChatBatchJson, VaultDevicesJson, VaultJson };

export interface VaultStore {
  status: "loading" | "none" | "locked" | "unlocking" | "unlocked" | "error";
  info: VaultJson | null;
  key: CryptoKey | null;
  deviceId: string | null;
}

let store: VaultStore = { status: "loading", info: null, key: null, deviceId: null };
const busy = { device: false, rotation: false };
// The raw key is needed to wrap it under a new method (Settings); it lives as long as `key`.
let rawKey: Uint8Array<ArrayBuffer> | null = null;
let tracker: IntegrityTracker | null = null;
const listeners = new Set<() => void>();

export function setVault(next: Partial<VaultStore>): void {
  store = { ...store, ...next };
  if (store.info) store.status = !store.info.exists ? "none" : store.key ? "unlocked" : busy.device || busy.rotation ? "unlocking" : "locked";
  listeners.forEach((l) => l());
}

export function setVaultError(): void {
  store = { ...store, status: "error" };
  listeners.forEach((l) => l());
}

export function setVaultBusy(kind: keyof typeof busy, on: boolean): void {
  busy[kind] = on;
}

export function vaultSnapshot(): VaultStore {
  return store;
}

function subscribeVault(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

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

/** Shown as is. */
export const actionError = (message: string) => new AppError("bad_request:vault", message);

/** @throws AppError "bad_request:vault" while loading. */
export function info(): VaultJson {
  if (!store.info) throw actionError("The vault is still loading.");
  return store.info;
}

/** @throws AppError "bad_request:vault" when locked. */
export function needRaw(): Uint8Array<ArrayBuffer> {
  if (!rawKey) throw actionError("Unlock your history first.");
  return rawKey;
}

export function heldKey(): { raw: Uint8Array<ArrayBuffer>; key: CryptoKey; tracker: IntegrityTracker } | null {
  return rawKey && store.key && tracker ? { raw: rawKey, key: store.key, tracker } : null;
}

export function holdRawKey(raw: Uint8Array<ArrayBuffer>): void {
  rawKey = raw;
}

export function replaceRawKey(next: Uint8Array<ArrayBuffer>): void {
  rawKey?.fill(0);
  rawKey = next;
}

export function holdTracker(next: IntegrityTracker): void {
  tracker = next;
}

export async function trackerFor(raw: Uint8Array<ArrayBuffer>): Promise<IntegrityTracker> {
  const userId = info().user_id;
  const keyGeneration = info().key_generation;
  // The integrity code loads with the first unlock, not in /chat's first load.
  const { IntegrityTracker } = await import("./integrity-tracker");
  return IntegrityTracker.start(raw, userId, { read: () => readSeen(userId), write: (seen) => writeSeen(userId, seen) }, keyGeneration);
}

export function lockVault(): void {
  rawKey?.fill(0);
  rawKey = null;
  tracker = null;
  setVault({ key: null });
}

/** @throws AppError "bad_request:vault" when locked */
export function unlockedVault(message = "Unlock your history first."): { key: CryptoKey; userId: string; tracker: IntegrityTracker } {
  if (!store.key || !tracker) throw actionError(message);
  return { key: store.key, userId: info().user_id, tracker };
}

export async function reloadVaultInfo(): Promise<VaultJson> {
  const next = await apiFetch("vaultGet");
  setVault({ info: next });
  return next;
}

export async function setHistoryOn(on: boolean): Promise<void> {
  await apiFetch("vaultPatch", { body: { history_on: on } });
  setVault({ info: { ...info(), history_on: on } });
}
