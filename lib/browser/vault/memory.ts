import type { apiFetch } from "@/lib/browser/api/client";
import { decryptField, encryptField, fromBase64, toBase64, vaultDecryptionError } from "./crypto";
import { MAX_MEMORIES, MEMORY_MAX_CHARS } from "@/lib/shared/memory/limits";
import { INTEGRITY_WARNING } from "./integrity";

// Memory (docs/issues.md #41): one sealed, padded field bound to the user. The version is sealed inside: a clear
// version that differs, or is older than this device has seen, is an integrity warning.

export interface MemoryFact {
  id: string;
  text: string;
  at: number;
}

export interface MemoryList {
  version: number;
  enabled: boolean;
  facts: MemoryFact[];
}

export const EMPTY_MEMORY: MemoryList = { version: 0, enabled: true, facts: [] };

export interface MemorySeen {
  get(userId: string): number;
  set(userId: string, version: number): void;
}

const localMemorySeen: MemorySeen = {
  get: (userId) => {
    if (typeof localStorage === "undefined") return 0;
    return Number(localStorage.getItem(`hush.memory.seen.${userId}`) ?? 0) || 0;
  },
  set: (userId, version) => {
    if (typeof localStorage === "undefined") return;
    localStorage.setItem(`hush.memory.seen.${userId}`, String(version));
  },
};

export function normalizeFact(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, MEMORY_MAX_CHARS);
}

export async function sealMemory(key: CryptoKey, userId: string, list: MemoryList): Promise<string> {
  const facts = [...list.facts].sort((a, b) => b.at - a.at).slice(0, MAX_MEMORIES).map((f) => ({ ...f, text: normalizeFact(f.text) }));
  const plain = JSON.stringify({ version: list.version, enabled: list.enabled, facts });
  return toBase64(await encryptField(key, { field: "memory", userId }, plain));
}

/** @throws AppError "unprocessable:vault_decrypt" when it does not authenticate or is not a list */
export async function openMemory(key: CryptoKey, userId: string, sealed: string): Promise<MemoryList> {
  const parsed = JSON.parse(await decryptField(key, { field: "memory", userId }, fromBase64(sealed))) as Partial<MemoryList>;
  if (typeof parsed.version !== "number" || !Array.isArray(parsed.facts)) throw vaultDecryptionError("Malformed memory list.");
  const facts = parsed.facts.map((f) => ({ id: String(f.id), text: String(f.text), at: Number(f.at) || 0 }));
  return { version: parsed.version, enabled: parsed.enabled !== false, facts };
}

export interface LoadedMemory {
  list: MemoryList;
  warning: string | null;
}

/** Read and open the user's memories (GET /api/memory), checking its version. @throws AppError */
export async function loadMemory(api: typeof apiFetch, key: CryptoKey, userId: string, seen: MemorySeen = localMemorySeen): Promise<LoadedMemory> {
  const state = await api("memoryGet");
  const highest = seen.get(userId);
  if (!state.sealed) {
    const warning = highest > 0 ? `${INTEGRITY_WARNING} your saved memories are missing on the server; this device saw them before.` : null;
    return { list: { ...EMPTY_MEMORY }, warning };
  }
  const list = await openMemory(key, userId, state.sealed);
  let warning: string | null = null;
  if (list.version !== state.version) warning = `${INTEGRITY_WARNING} your saved memories do not match their version on the server.`;
  else if (list.version < highest) warning = `${INTEGRITY_WARNING} your saved memories are older than this device has seen: they may have been rolled back.`;
  else seen.set(userId, list.version);
  return { list, warning };
}

/** Store `next` as version `base` + 1 (compare-and-set). @throws AppError conflict:memory_version */
export async function saveMemory(
  api: typeof apiFetch,
  key: CryptoKey,
  userId: string,
  base: MemoryList,
  next: Omit<MemoryList, "version">,
  seen: MemorySeen = localMemorySeen,
): Promise<MemoryList> {
  const list = { ...next, version: base.version + 1 };
  await api("memoryPut", { body: { sealed: await sealMemory(key, userId, list), version: list.version, base_version: base.version } });
  seen.set(userId, list.version);
  return list;
}

/** Seal the list again under `nextKey` in a key rotation. @returns whether it was sealed again. @throws AppError */
export async function resealMemory(api: typeof apiFetch, userId: string, oldKey: CryptoKey, nextKey: CryptoKey): Promise<boolean> {
  const state = await api("memoryGet");
  if (!state.sealed) return false;
  const list = await openMemory(oldKey, userId, state.sealed).catch(() => null);
  if (!list) return false;
  const next = { ...list, version: state.version + 1 };
  await api("memoryPut", { body: { sealed: await sealMemory(nextKey, userId, next), version: next.version, base_version: state.version } });
  return true;
}

export function newFact(text: string, now = Date.now()): MemoryFact {
  return { id: crypto.randomUUID(), text: normalizeFact(text), at: now };
}
