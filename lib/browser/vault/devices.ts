"use client";
import "client-only";

import { apiFetch } from "@/lib/browser/api/client";
import { AppError } from "@/lib/shared/errors";
import { fromBase64, generateDeviceKey, wrapForDevice } from "./crypto";
import { removeAllDrafts } from "@/lib/browser/chat/drafts";
import { describeThisDevice, forgetDeviceRecord, forgetSeen, readDevice, writeDevice } from "./device-store";
import { actionError, info, needRaw, reloadVaultInfo, setVault, vaultSnapshot, type VaultDevicesJson } from "./store";

/**
 * Remembered devices: the vault key wrapped under a server share and a key this browser
 * cannot export, kept in IndexedDB (./device-store.ts). Opening the vault with one is in ./unlock.ts.
 */

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
  setVault({ deviceId: id });
}

/** Whether this browser holds a remembered-device record for the signed-in user (sign-out offers to forget it). */
export async function isThisDeviceRemembered(): Promise<boolean> {
  const { info } = vaultSnapshot();
  return info ? (await readDevice(info.user_id)) !== null : false;
}

/** This browser's remembered-device id, read from IndexedDB (Settings marks "This device"). */
export async function thisDeviceId(): Promise<string | null> {
  const { info } = vaultSnapshot();
  return info ? ((await readDevice(info.user_id))?.deviceId ?? null) : null;
}

/**
 * Forget this device: revoke its server share (a 404 means it was already revoked) and delete the
 * local record. @throws AppError when the server could not be reached (the local record is deleted anyway).
 */
export async function forgetThisDevice(): Promise<void> {
  const userId = info().user_id;
  const record = await readDevice(userId);
  await forgetDeviceRecord(userId);
  setVault({ deviceId: null });
  if (!record) return;
  try {
    await apiFetch("vaultDeviceRevoke", { body: { id: record.deviceId } });
  } catch (error) {
    if (!(error instanceof AppError && error.status === 404)) throw error;
  }
}

/**
 * Delete what this browser keeps under the signed-in user's id: the sealed drafts in localStorage, the seen
 * versions and any remembered-device record in IndexedDB. On log out with "Forget this device" and after the
 * account is deleted; `userId` when the vault's state is not loaded.
 */
export async function forgetLocalTraces(userId: string | null = vaultSnapshot().info?.user_id ?? null): Promise<void> {
  if (!userId) return;
  removeAllDrafts(userId);
  await forgetSeen(userId);
  await forgetDeviceRecord(userId);
}

/**
 * Whose traces forgetLocalTraces deletes: the loaded vault's user id, else GET /api/vault's (a page whose vault had
 * not loaded yet); null when neither answers. Read before the account goes, while the session still answers.
 */
export async function localTracesOwner(): Promise<string | null> {
  const loaded = vaultSnapshot().info?.user_id;
  if (loaded) return loaded;
  try {
    return (await reloadVaultInfo()).user_id;
  } catch {
    return null;
  }
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
    setVault({ deviceId: null });
  }
  return left;
}
