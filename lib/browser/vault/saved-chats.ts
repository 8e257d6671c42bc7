"use client";
import "client-only";

import { apiFetch } from "@/lib/browser/api/client";
import { AppError, isAppError } from "@/lib/shared/errors";
import type { IntegrityTracker, ManifestBody } from "./integrity-tracker";
import { openChat, sealTitle, sealTurn, type PlainMessage, type SealedChatJson } from "./seal";
import { forEachSealedChatBatch, listSavedChatVersions } from "./sealed-chat-batches";
import { actionError, reloadVaultInfo, unlockedVault } from "./store";

/**
 * Writing and reading saved chats in the browser with their integrity: every write carries
 * the chat's next sealed header and the next sealed manifest (lib/browser/vault/integrity-tracker.ts), every read is
 * checked against them and this device's seen versions. Writes from this tab run one at a time (they
 * all write the one manifest); a write that lost a race with another device (409) reads what changed,
 * checks it, and is made again, so two devices never raise a false alarm.
 */

/** A saved chat failed its integrity check: the message starts with "Integrity warning:" and is shown as is. */
export const integrityError = (message: string) => new AppError("unprocessable:integrity", message);

const ATTEMPTS = 4;
let queue: Promise<unknown> = Promise.resolve();

/** Run `job` after this tab's earlier writes (they share the manifest's compare-and-set). */
function serial<T>(job: () => Promise<T>): Promise<T> {
  const run = queue.then(job, job);
  queue = run.catch(() => undefined);
  return run;
}

/** Read the manifest again (another device wrote it). @throws AppError "unprocessable:integrity" */
async function reloadManifest(tracker: IntegrityTracker): Promise<void> {
  const problem = await tracker.adoptManifest((await reloadVaultInfo()).manifest);
  if (problem) throw integrityError(problem);
}

/** Read a chat and check it; its state is then known to the tracker. @throws AppError (integrity, 404...) */
async function readChecked(tracker: IntegrityTracker, chatId: string): Promise<SealedChatJson> {
  const sealed = await apiFetch("chatHistoryGet", { params: { chatId } });
  const problem = await tracker.checkChat(sealed);
  if (problem) throw integrityError(problem);
  return sealed;
}

/** Make the manifest (or, before there is one, the list) known before the first write. */
async function ready(tracker: IntegrityTracker): Promise<void> {
  if (tracker.ready) return;
  const problem = await checkHistoryIntegrity();
  if (problem) throw integrityError(problem);
}

/**
 * Write with retries: after a 409 (the client sees the status and message, not the server's code: the
 * manifest, the chat's version or its positions moved), the manifest and the chat are read again and
 * checked, then `attempt` makes its bodies again from what was read. A 409 that stays is thrown.
 */
async function withRetries<T>(tracker: IntegrityTracker, chatId: string | null, attempt: () => Promise<T>): Promise<T> {
  await ready(tracker);
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= ATTEMPTS) throw error;
      if (!isAppError(error, "conflict")) throw error;
      await reloadManifest(tracker);
      if (chatId && tracker.has(chatId)) await readChecked(tracker, chatId);
    }
  }
}

/**
 * Seal and store a finished turn (POST /api/ns/chat_save). `messages` is the whole stored path; `from` is
 * how many of them are already stored unchanged (0 for a new chat, whose id is made here). With
 * `replace` the stored messages from `from` on are replaced (an edit or regenerate changed the
 * active path); `tree` is the branch tree's wire form (null: no versions). The chat's header and the
 * manifest go with it.
 * @returns the chat id. @throws AppError (locked, network, refused, integrity)
 */
export function saveTurn(input: {
  chatId: string | null;
  from: number;
  messages: PlainMessage[];
  title: string | null;
  replace?: boolean;
  tree?: string | null;
}): Promise<string> {
  const { key, userId, tracker } = unlockedVault("Unlock your history to save this chat.");
  const create = input.chatId === null;
  const chatId = input.chatId ?? crypto.randomUUID();
  return serial(async () => {
    const body = await sealTurn({
      key,
      userId,
      chatId,
      create,
      firstPosition: create ? 0 : input.from,
      messages: create ? input.messages : input.messages.slice(input.from),
      title: input.title,
      replace: !create && input.replace === true,
      tree: input.tree,
    });
    await withRetries(tracker, chatId, async () => {
      if (!create && !tracker.has(chatId)) await readChecked(tracker, chatId);
      const integrity = await tracker.forWrite(chatId, create, {
        from: body.first_position,
        messages: body.messages,
        title_ciphertext: body.title_ciphertext,
        tree_ciphertext: body.tree_ciphertext,
      });
      await apiFetch("chatSave", { body: { ...body, integrity: integrity.body } as never });
      await integrity.commit();
    });
    return chatId;
  });
}

/**
 * Store an imported chat as a new saved chat (ChatGPT import), sealed here under the vault key,
 * with its original dates. @returns the new chat id. @throws AppError
 */
export function importChat(input: { title: string | null; messages: PlainMessage[]; createdAt: Date; lastUpdated: Date }): Promise<string> {
  const { key, userId, tracker } = unlockedVault("Unlock your history to import chats.");
  const chatId = crypto.randomUUID();
  return serial(async () => {
    const body = await sealTurn({
      key,
      userId,
      chatId,
      create: true,
      firstPosition: 0,
      messages: input.messages,
      title: input.title,
      dates: { createdAt: input.createdAt, lastUpdated: input.lastUpdated },
    });
    await withRetries(tracker, null, async () => {
      const integrity = await tracker.forWrite(chatId, true, { from: 0, messages: body.messages, title_ciphertext: body.title_ciphertext });
      await apiFetch("chatSave", { body: { ...body, integrity: integrity.body } as never });
      await integrity.commit();
    });
    return chatId;
  });
}

/**
 * Rename a saved chat: the name sealed here, the chat's next header and the manifest with it.
 * @throws AppError (locked, network, 404, integrity)
 */
export function renameSavedChat(chatId: string, title: string): Promise<void> {
  const { key, userId, tracker } = unlockedVault();
  return serial(async () => {
    const title_ciphertext = await sealTitle(key, userId, chatId, title);
    await withRetries(tracker, chatId, async () => {
      if (!tracker.has(chatId)) await readChecked(tracker, chatId);
      const integrity = await tracker.forWrite(chatId, false, { from: Number.MAX_SAFE_INTEGER, messages: [], title_ciphertext });
      await apiFetch("chatTitle", { body: { chat_id: chatId, title_ciphertext, integrity: integrity.body } });
      await integrity.commit();
    });
  });
}

/**
 * Delete a saved chat with the manifest that no longer lists it. `keepalive`: the request
 * outlives the page (sent when the page is left inside the undo window). @throws AppError
 */
export function deleteSavedChat(chatId: string, keepalive = false): Promise<void> {
  const { tracker } = unlockedVault();
  return serial(() =>
    withRetries(tracker, null, async () => {
      const manifest = await tracker.forDelete(chatId);
      await apiFetch("deleteChat", { body: { chat_id: chatId, manifest: manifest.body }, keepalive });
      await manifest.commit();
    }),
  );
}

/**
 * The body of deleting `chatId`, made now so that it can be sent at once when the page is left inside the
 * undo window: a fetch with keepalive in "pagehide" has no time left for sealing a manifest.
 * Best effort: should the manifest move meanwhile, the server answers 409 and the chat stays (no false
 * alarm either way). @throws AppError when locked
 */
export async function prepareDeleteBody(chatId: string): Promise<{ chat_id: string; manifest: ManifestBody }> {
  const { tracker } = unlockedVault();
  await ready(tracker);
  return { chat_id: chatId, manifest: (await tracker.forDelete(chatId)).body };
}

/** A saved chat opened here: decrypted, and its integrity problem (null when it passed). */
export type CheckedChat = Awaited<ReturnType<typeof openChat>> & { integrity: string | null };

/**
 * Fetch, check and decrypt a saved chat. A chat that fails its check but still decrypts comes
 * back with `integrity` set (the screen shows the warning with it); one that does not decrypt throws
 * the integrity warning. @throws AppError (locked, network, 404, "unprocessable:integrity")
 */
export async function openSavedChat(chatId: string): Promise<CheckedChat> {
  const { key, userId, tracker } = unlockedVault();
  const sealed = await apiFetch("chatHistoryGet", { params: { chatId } });
  const integrity = await tracker.checkChat(sealed);
  try {
    return { ...(await openChat(key, userId, sealed)), integrity };
  } catch (error) {
    throw integrity ? integrityError(integrity) : error;
  }
}

/**
 * Check a chat read in a batch (search's index) against its header and the manifest.
 * @returns the integrity warning, or null (also when the vault is locked meanwhile: nothing is shown then).
 */
export async function checkSealedChat(chat: SealedChatJson): Promise<string | null> {
  try {
    return await unlockedVault().tracker.checkChat(chat);
  } catch {
    return null;
  }
}

/**
 * Check the whole list of saved chats against the manifest: the manifest is read before and
 * after the list, until both reads agree (a write from another device in between would look like
 * tampering). Run once after unlocking. @returns the warning to show, or null.
 */
export async function checkHistoryIntegrity(): Promise<string | null> {
  const { tracker } = unlockedVault();
  for (let i = 0; i < ATTEMPTS; i++) {
    const before = await reloadVaultInfo();
    const problem = await tracker.adoptManifest(before.manifest);
    if (problem) return problem;
    const list = await listSavedChatVersions();
    const after = await reloadVaultInfo();
    if ((after.manifest?.version ?? 0) === (before.manifest?.version ?? 0)) return tracker.adoptList(list);
  }
  return null;
}

/** A saved chat decrypted in this browser (for export). */
export type OpenedChat = Awaited<ReturnType<typeof openChat>>;

/**
 * Saved chats, fetched in batches and decrypted here (for export), in the order of `chatIds`;
 * chats deleted meanwhile are left out. `onProgress` gets how many ids are settled so far.
 * @throws AppError (locked, network, a chat that fails its integrity check or does not decrypt)
 */
export async function loadSavedChats(chatIds: readonly string[], onProgress?: (done: number) => void): Promise<OpenedChat[]> {
  const { key, userId, tracker } = unlockedVault();
  const opened = new Map<string, OpenedChat>();
  let done = 0;
  await forEachSealedChatBatch(chatIds, async (batch, settled) => {
    // Every chat read is checked against its header and the manifest first.
    for (const sealed of batch.chats) {
      const problem = await tracker.checkChat(sealed);
      if (problem) throw actionError(problem);
    }
    try {
      const chats = await Promise.all(batch.chats.map((sealed) => openChat(key, userId, sealed)));
      for (const chat of chats) opened.set(chat.chatId, chat);
    } catch {
      throw actionError("A saved chat could not be decrypted.");
    }
    done += settled.length;
    onProgress?.(done);
  });
  return chatIds.flatMap((id) => opened.get(id.toLowerCase()) ?? []);
}
