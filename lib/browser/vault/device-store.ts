"use client";
import "client-only";

import { createStore, del, get, set, type UseStore } from "idb-keyval";
import type { Seen } from "./integrity";

// This browser's half of a remembered device in IndexedDB: nothing here opens anything alone.
export interface DeviceRecord {
  deviceId: string;
  deviceKey: CryptoKey;
  wrapped: Uint8Array<ArrayBuffer>;
}

let store: UseStore | null = null;
const devices = () => (store ??= createStore("hush-vault", "devices"));

export async function readDevice(userId: string): Promise<DeviceRecord | null> {
  try {
    return (await get<DeviceRecord>(userId, devices())) ?? null;
  } catch {
    return null;
  }
}

export async function writeDevice(userId: string, record: DeviceRecord): Promise<void> {
  await set(userId, record, devices());
}

export async function forgetDeviceRecord(userId: string): Promise<void> {
  try {
    await del(userId, devices());
  } catch {
  }
}

let seenStore: UseStore | null = null;
const seenVersions = () => (seenStore ??= createStore("hush-seen", "versions"));
// Without IndexedDB the seen versions last as long as the tab (still catching rollbacks within it).
const seenInMemory = new Map<string, Seen>();

export async function readSeen(userId: string): Promise<Seen> {
  try {
    const stored = await get<Seen>(userId, seenVersions());
    if (stored) return stored;
  } catch {
  }
  return seenInMemory.get(userId) ?? { manifest: 0, chats: {} };
}

export async function writeSeen(userId: string, seen: Seen): Promise<void> {
  seenInMemory.set(userId, seen);
  try {
    await set(userId, seen, seenVersions());
  } catch {
  }
}

// A device that stays remembered keeps them: they are its rollback high-water marks.
export async function forgetSeen(userId: string): Promise<void> {
  seenInMemory.delete(userId);
  try {
    await del(userId, seenVersions());
  } catch {
  }
}

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
