import { vaultCrypto } from "@/lib/browser/vault/lazy";

/**
 * Signed-in users' unsent drafts, one per chat, kept in this browser's localStorage sealed with the vault key
 * (docs/security.md "Drafts"): AES-GCM under the vault key with associated data
 * `{ field: "draft", userId, chatId }` (lib/browser/vault/crypto.ts), padded like every vault field, so a draft can
 * be read only after unlocking and cannot be moved to another chat or user. Nothing is stored in clear and
 * nothing reaches the server. The entry's name holds the user id and the chat id (or "new"), never text.
 */
export const NEW_CHAT_DRAFT = "new";
const PREFIX = "hush.draft.v1.";

/** The localStorage entry of one chat's draft. */
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

/** Seal `text` as the draft of `chatKey` (a chat id or NEW_CHAT_DRAFT); base64. */
export async function sealDraft(key: CryptoKey, userId: string, chatKey: string, text: string): Promise<string> {
  const { encryptField, toBase64 } = await vaultCrypto();
  return toBase64(await encryptField(key, { field: "draft", userId, chatId: chatKey }, text));
}

/** Open a sealed draft. @throws AppError "unprocessable:vault_decrypt" (wrong key, moved or altered) */
export async function openDraft(key: CryptoKey, userId: string, chatKey: string, sealed: string): Promise<string> {
  const { decryptField, fromBase64 } = await vaultCrypto();
  return decryptField(key, { field: "draft", userId, chatId: chatKey }, fromBase64(sealed));
}

/** Store (or, for blank text, remove) the sealed draft of `chatKey`. Storage errors are ignored. */
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

/** The draft of `chatKey`, or "" (none, or one that does not open: it is then removed). */
export async function loadDraft(key: CryptoKey, userId: string, chatKey: string): Promise<string> {
  const store = storage();
  const name = draftStorageKey(userId, chatKey);
  const sealed = store?.getItem(name);
  if (!store || !sealed) return "";
  // Fetched before the try: code that could not be fetched must not count as a draft that does not open
  // (which would remove it). @throws then, and the draft stays stored.
  await vaultCrypto();
  try {
    return await openDraft(key, userId, chatKey, sealed);
  } catch {
    store.removeItem(name);
    return "";
  }
}

/** Remove a chat's draft (the chat was deleted, or its draft moved to the chat's new id). */
export function removeDraft(userId: string, chatKey: string): void {
  try {
    storage()?.removeItem(draftStorageKey(userId, chatKey));
  } catch {
    // nothing stored
  }
}

/**
 * Remove every draft of `userId` from this browser (finding 7): "Forget this device" on
 * log out and account deletion leave no entry naming the user or a chat.
 */
export function removeAllDrafts(userId: string): void {
  const store = storage();
  if (!store) return;
  try {
    const mine = `${PREFIX}${userId}.`;
    const keys = Array.from({ length: store.length }, (_, i) => store.key(i)).filter((k): k is string => k !== null && k.startsWith(mine));
    for (const key of keys) store.removeItem(key);
  } catch {
    // Storage unavailable: nothing stored.
  }
}
