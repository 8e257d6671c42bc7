"use client";
import "client-only";

import { apiFetch } from "@/lib/browser/api/client";
import { AppError } from "@/lib/shared/errors";
import { fromBase64, generateDeviceKey, wrapForDevice } from "./crypto";
import { removeAllDrafts } from "@/lib/browser/chat/drafts";
import { describeThisDevice, forgetDeviceRecord, forgetSeen, readDevice, writeDevice } from "./device-store";
import { actionError, info, needRaw, reloadVaultInfo, setVault, vaultSnapshot, type VaultDevicesJson } from "./store";

/** Remember this browser: the vault key wrapped under a server share and a non-extractable local key. @throws AppError */
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

export async function isThisDeviceRemembered(): Promise<boolean> {
  const { info } = vaultSnapshot();
  return info ? (await readDevice(info.user_id)) !== null : false;
}

export async function thisDeviceId(): Promise<string | null> {
  const { info } = vaultSnapshot();
  return info ? ((await readDevice(info.user_id))?.deviceId ?? null) : null;
}

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

/** Delete this browser's drafts, seen versions and remembered-device record of `userId`. */
export async function forgetLocalTraces(userId: string | null = vaultSnapshot().info?.user_id ?? null): Promise<void> {
  if (!userId) return;
  removeAllDrafts(userId);
  await forgetSeen(userId);
  await forgetDeviceRecord(userId);
}

export async function localTracesOwner(): Promise<string | null> {
  const loaded = vaultSnapshot().info?.user_id;
  if (loaded) return loaded;
  try {
    return (await reloadVaultInfo()).user_id;
  } catch {
    return null;
  }
}

export function listRememberedDevices(): Promise<VaultDevicesJson> {
  return apiFetch("vaultDevices");
}

export async function revokeRememberedDevice(id: string): Promise<VaultDevicesJson> {
  const left = await apiFetch("vaultDeviceRevoke", { body: { id } });
  const userId = info().user_id;
  if ((await readDevice(userId))?.deviceId === id) {
    await forgetDeviceRecord(userId);
    setVault({ deviceId: null });
  }
  return left;
}
