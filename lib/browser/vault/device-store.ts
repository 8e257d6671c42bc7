"use client";
import "client-only";

import { createStore, del, get, set, type UseStore } from "idb-keyval";
import type { Seen } from "./integrity";

/**
 * This browser's half of a remembered device, in IndexedDB (idb-keyval): per user,
 * the device id the server chose, the device's non-extractable key and the vault key wrapped under it
 * and the server's share (lib/browser/vault/crypto.ts wrapForDevice). Nothing here opens anything alone.
 */
export interface DeviceRecord {
  deviceId: string;
  deviceKey: CryptoKey;
  wrapped: Uint8Array<ArrayBuffer>;
}

let store: UseStore | null = null;
const devices = () => (store ??= createStore("hush-vault", "devices"));

/** The record for `userId`, or null (none, or IndexedDB unavailable, e.g. some private windows). */
export async function readDevice(userId: string): Promise<DeviceRecord | null> {
  try {
    return (await get<DeviceRecord>(userId, devices())) ?? null;
  } catch {
    return null;
  }
}

/** Store the record for `userId`. @throws when IndexedDB refuses (the caller says it could not remember). */
export async function writeDevice(userId: string, record: DeviceRecord): Promise<void> {
  await set(userId, record, devices());
}

/** Delete the record for `userId` (nothing when there is none). */
export async function forgetDeviceRecord(userId: string): Promise<void> {
  try {
    await del(userId, devices());
  } catch {
    // Nothing stored, or IndexedDB unavailable: nothing to forget.
  }
}

// idb-keyval keeps one object store per database: the seen versions get their own.
let seenStore: UseStore | null = null;
const seenVersions = () => (seenStore ??= createStore("hush-seen", "versions"));
// Without IndexedDB the seen versions last as long as the tab (still catching rollbacks within it).
const seenInMemory = new Map<string, Seen>();

/**
 * The highest versions of the manifest and of each chat this device has seen for `userId`
 * ; chat ids and numbers only, nothing a user wrote.
 */
export async function readSeen(userId: string): Promise<Seen> {
  try {
    const stored = await get<Seen>(userId, seenVersions());
    if (stored) return stored;
  } catch {
    // IndexedDB unavailable: the tab's memory below.
  }
  return seenInMemory.get(userId) ?? { manifest: 0, chats: {} };
}

/** Store the seen versions for `userId` (in this tab's memory too, should IndexedDB refuse). */
export async function writeSeen(userId: string, seen: Seen): Promise<void> {
  seenInMemory.set(userId, seen);
  try {
    await set(userId, seen, seenVersions());
  } catch {
    // Kept in memory for this tab.
  }
}

/**
 * Delete the seen versions of `userId` (finding 7: "Forget this device" and account
 * deletion). A device that stays remembered keeps them: they are its rollback high-water marks.
 */
export async function forgetSeen(userId: string): Promise<void> {
  seenInMemory.delete(userId);
  try {
    await del(userId, seenVersions());
  } catch {
    // IndexedDB unavailable: nothing stored.
  }
}

/** A short name for this device as Settings lists it, from the user agent: "Chrome on Linux". */
export function describeThisDevice(userAgent: string = typeof navigator === "undefined" ? "" : navigator.userAgent): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : "Browser";
  const os = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad|iPod/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(userAgent)
          ? "macOS"
          : /CrOS/.test(userAgent)
            ? "ChromeOS"
            : /Linux/.test(userAgent)
              ? "Linux"
              : "another system";
  return `${browser} on ${os}`;
}
