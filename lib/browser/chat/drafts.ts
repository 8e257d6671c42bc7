import { vaultCrypto } from "@/lib/browser/vault/sealing-loaders";

// Unsent drafts, kept in localStorage sealed under the vault key and bound to user and chat (docs/security.md "Drafts").
export const NEW_CHAT_DRAFT = "new";
const PREFIX = "hush.draft.v1.";

export function draftStorageKey(userId: string, chatKey: string): string {
  return `${PREFIX}${userId}.${chatKey}`;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

export async function sealDraft(key: CryptoKey, userId: string, chatKey: string, text: string): Promise<string> {
  const { encryptField, toBase64 } = await vaultCrypto();
  return toBase64(await encryptField(key, { field: "draft", userId, chatId: chatKey }, text));
}

export async function openDraft(key: CryptoKey, userId: string, chatKey: string, sealed: string): Promise<string> {
  const { decryptField, fromBase64 } = await vaultCrypto();
  return decryptField(key, { field: "draft", userId, chatId: chatKey }, fromBase64(sealed));
}

export async function storeDraft(key: CryptoKey, userId: string, chatKey: string, text: string): Promise<void> {
  const store = storage();
  if (!store) return;
  const name = draftStorageKey(userId, chatKey);
  try {
    if (text.trim() === "") store.removeItem(name);
    else store.setItem(name, await sealDraft(key, userId, chatKey, text));
  } catch {
    // Quota or blocked storage: the draft stays in the composer, just not kept across a reload.
  }
}

export async function loadDraft(key: CryptoKey, userId: string, chatKey: string): Promise<string> {
  const store = storage();
  const name = draftStorageKey(userId, chatKey);
  const sealed = store?.getItem(name);
  if (!store || !sealed) return "";
  // Fetched before the try: code that could not load must not count as a draft that does not open (which removes it).
  await vaultCrypto();
  try {
    return await openDraft(key, userId, chatKey, sealed);
  } catch {
    store.removeItem(name);
    return "";
  }
}

export function removeDraft(userId: string, chatKey: string): void {
  try {
    storage()?.removeItem(draftStorageKey(userId, chatKey));
  } catch {
  }
}

export function removeAllDrafts(userId: string): void {
  const store = storage();
  if (!store) return;
  try {
    const mine = `${PREFIX}${userId}.`;
    const keys = Array.from({ length: store.length }, (_, i) => store.key(i)).filter((k): k is string => k !== null && k.startsWith(mine));
    for (const key of keys) store.removeItem(key);
  } catch {
  }
}
