import type { apiFetch } from "@/lib/browser/api/client";
import { decryptField, encryptField, fromBase64, toBase64, vaultDecryptionError } from "./crypto";
import { MAX_MEMORIES, MEMORY_MAX_CHARS } from "@/lib/shared/memory/limits";
import { INTEGRITY_WARNING } from "./integrity";

/**
 * Memory (docs/issues.md #41), sealed and opened in the browser under the vault key (and in tests acting as the
 * browser). The whole list is one field, the JSON {version, enabled, facts}, padded to its bucket like every field
 * (lib/browser/vault/crypto.ts format 3) and bound to the user (associated data ["hush", 3, "memory", userId]).
 *
 * Integrity, as for chats (docs/issues.md #21): the version is sealed inside, so the server can neither alter nor
 * swap the list for another user's; the clear copy of the version only serves compare-and-set (POST /api/memory),
 * and a stored version that differs from the sealed one, or is older than this device has seen
 * (`MemorySeen`), is an integrity warning rather than a silently older list.
 */

/** One fact the user keeps. `at`: when it was added or last edited (ms since the epoch). */
export interface MemoryFact {
  id: string;
  text: string;
  at: number;
}

/** The opened list. `enabled` false: memory is off (nothing is sent with turns; the facts are kept). */
export interface MemoryList {
  version: number;
  enabled: boolean;
  facts: MemoryFact[];
}

/** The list before anything was stored: memory on, no facts. */
export const EMPTY_MEMORY: MemoryList = { version: 0, enabled: true, facts: [] };

/** Where this device keeps the highest memory version it has seen (per user). */
export interface MemorySeen {
  get(userId: string): number;
  set(userId: string, version: number): void;
}

/** The highest version seen, in this browser's local storage (a no-op store outside a browser). */
export const localMemorySeen: MemorySeen = {
  get: (userId) => {
    if (typeof localStorage === "undefined") return 0;
    return Number(localStorage.getItem(`hush.memory.seen.${userId}`) ?? 0) || 0;
  },
  set: (userId, version) => {
    if (typeof localStorage === "undefined") return;
    localStorage.setItem(`hush.memory.seen.${userId}`, String(version));
  },
};

/** A fact tidied the way it is stored: one line, trimmed, cut at MEMORY_MAX_CHARS. */
export function normalizeFact(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, MEMORY_MAX_CHARS);
}

/** Seal `list` for `userId`, as base64 for POST /api/memory. At most MAX_MEMORIES facts are kept (the newest). */
export async function sealMemory(key: CryptoKey, userId: string, list: MemoryList): Promise<string> {
  const facts = [...list.facts].sort((a, b) => b.at - a.at).slice(0, MAX_MEMORIES).map((f) => ({ ...f, text: normalizeFact(f.text) }));
  const plain = JSON.stringify({ version: list.version, enabled: list.enabled, facts });
  return toBase64(await encryptField(key, { field: "memory", userId }, plain));
}

/**
 * Open a sealed list. @throws AppError "unprocessable:vault_decrypt" when it does not authenticate (wrong key,
 * another user's, altered) or is not a list.
 */
export async function openMemory(key: CryptoKey, userId: string, sealed: string): Promise<MemoryList> {
  const parsed = JSON.parse(await decryptField(key, { field: "memory", userId }, fromBase64(sealed))) as Partial<MemoryList>;
  if (typeof parsed.version !== "number" || !Array.isArray(parsed.facts)) throw vaultDecryptionError("Malformed memory list.");
  const facts = parsed.facts.map((f) => ({ id: String(f.id), text: String(f.text), at: Number(f.at) || 0 }));
  return { version: parsed.version, enabled: parsed.enabled !== false, facts };
}

/** The server's list, opened and checked. */
export interface LoadedMemory {
  list: MemoryList;
  /** An integrity warning (INTEGRITY_WARNING first) when the stored list is older than seen or mislabelled. */
  warning: string | null;
}

/**
 * Read and open the user's memories (GET /api/memory), checking the sealed version against the clear one and
 * against the highest this device has seen. @throws AppError (network; vault_decrypt when it does not open)
 */
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

/**
 * Store `next` (its version is ignored: written as the loaded `base` version + 1, compare-and-set).
 * @returns the list as stored. @throws AppError (conflict:memory_version when another device wrote first)
 */
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

/**
 * Key rotation (docs/issues.md #21) for memory: when the list opens under `oldKey` it is sealed again under
 * `nextKey` as the next version. Called by lib/browser/vault/rotation.ts before it finishes.
 * @returns whether it was sealed again. @throws AppError (network, refused)
 */
export async function resealMemory(api: typeof apiFetch, userId: string, oldKey: CryptoKey, nextKey: CryptoKey): Promise<boolean> {
  const state = await api("memoryGet");
  if (!state.sealed) return false;
  const list = await openMemory(oldKey, userId, state.sealed).catch(() => null);
  if (!list) return false;
  const next = { ...list, version: state.version + 1 };
  await api("memoryPut", { body: { sealed: await sealMemory(nextKey, userId, next), version: next.version, base_version: state.version } });
  return true;
}

/** A new fact with a fresh id, added now. */
export function newFact(text: string, now = Date.now()): MemoryFact {
  return { id: crypto.randomUUID(), text: normalizeFact(text), at: now };
}
