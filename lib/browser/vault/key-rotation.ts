"use client";
import "client-only";

import { apiFetch } from "@/lib/browser/api/client";
import { fromBase64, generateVaultKey, importVaultKey, unwrapNextKey } from "./crypto";
import { forgetDeviceRecord } from "./device-store";
import { checkPassphrase } from "./methods";
import type { CurrentKey, RotationDraft, RotationProgress } from "./rotation";
import { actionError, heldKey, holdTracker, info, needRaw, replaceRawKey, setVault, setVaultBusy, trackerFor } from "./store";

const rotation = () => import("./rotation");

/** Finish a rotation left unfinished at the next unlock. @returns the key to hold (the current one when finishing failed) */
export async function finishPendingRotation(raw: Uint8Array<ArrayBuffer>, pending: { generation: number; next_key: string }): Promise<Uint8Array<ArrayBuffer>> {
  const userId = info().user_id;
  setVaultBusy("rotation", true);
  setVault({});
  try {
    const next = await unwrapNextKey(fromBase64(pending.next_key), raw, { userId, generation: pending.generation });
    const current: CurrentKey = { userId, raw, key: await importVaultKey(raw), tracker: await trackerFor(raw) };
    setVault({ info: await (await rotation()).completeRotation(apiFetch, current, next, pending.generation) });
    await forgetDeviceRecord(userId);
    setVault({ deviceId: null });
    raw.fill(0);
    return next;
  } catch {
    console.error("Failed to finish the vault key rotation");
    return raw;
  } finally {
    setVaultBusy("rotation", false);
  }
}

/** Draft "Rotate vault key": a new key and recovery code, nothing sent yet. @throws AppError (locked, weak passphrase) */
export async function draftKeyRotation(passphrase: string | null): Promise<RotationDraft> {
  needRaw();
  const v = info();
  const checked = passphrase === null ? null : await checkPassphrase(passphrase);
  return (await rotation()).draftRotation(v.user_id, v.key_generation + 1, generateVaultKey(), checked);
}

/** Rotate the vault key; interrupted, it finishes at the next unlock. @throws AppError */
export async function rotateVaultKey(draft: RotationDraft, onProgress?: RotationProgress): Promise<void> {
  const userId = info().user_id;
  const held = heldKey();
  if (!held) throw actionError("Unlock your history first.");
  const current: CurrentKey = { userId, ...held };
  const { completeRotation, startRotation } = await rotation();
  await startRotation(apiFetch, current, draft);
  setVault({ info: await completeRotation(apiFetch, current, draft.next, draft.generation, onProgress) });
  await forgetDeviceRecord(userId);
  // Straight from the old key to the new one: the vault never shows as locked in between.
  const nextKey = await importVaultKey(draft.next);
  const nextTracker = await trackerFor(draft.next);
  replaceRawKey(draft.next);
  holdTracker(nextTracker);
  setVault({ deviceId: null, key: nextKey });
}
