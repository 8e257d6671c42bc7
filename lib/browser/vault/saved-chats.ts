"use client";
import "client-only";

import { apiFetch } from "@/lib/browser/api/client";
import { AppError, isAppError } from "@/lib/shared/errors";
import type { IntegrityTracker, ManifestBody } from "./integrity-tracker";
import { openChat, sealTitle, sealTurn, type PlainMessage, type SealedChatJson } from "./seal";
import { forEachSealedChatBatch, listSavedChatVersions } from "./sealed-chat-batches";
import { actionError, reloadVaultInfo, unlockedVault } from "./store";

// Every write carries the chat's next sealed header and manifest. This tab's writes run one at a time; a write that
// lost a race (409) reads what changed and is made again.

export const integrityError = (message: string) => new AppError("unprocessable:integrity", message);

const ATTEMPTS = 4;
let queue: Promise<unknown> = Promise.resolve();

function serial<T>(job: () => Promise<T>): Promise<T> {
  const run = queue.then(job, job);
  queue = run.catch(() => undefined);
  return run;
}

async function reloadManifest(tracker: IntegrityTracker): Promise<void> {
  const problem = await tracker.adoptManifest((await reloadVaultInfo()).manifest);
  if (problem) throw integrityError(problem);
}

async function readChecked(tracker: IntegrityTracker, chatId: string): Promise<SealedChatJson> {
  const sealed = await apiFetch("chatHistoryGet", { params: { chatId } });
  const problem = await tracker.checkChat(sealed);
  if (problem) throw integrityError(problem);
  return sealed;
}

async function ready(tracker: IntegrityTracker): Promise<void> {
  if (tracker.ready) return;
  const problem = await checkHistoryIntegrity();
  if (problem) throw integrityError(problem);
}

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

/** Seal and store a finished turn. @returns the chat id. @throws AppError */
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
      await apiFetch("chatSave", { body: { ...body, integrity: integrity.body } });
      await integrity.commit();
    });
    return chatId;
  });
}

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
      await apiFetch("chatSave", { body: { ...body, integrity: integrity.body } });
      await integrity.commit();
    });
    return chatId;
  });
}

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

// Made ahead so it can be sent at once in "pagehide", which has no time for sealing a manifest.
export async function prepareDeleteBody(chatId: string): Promise<{ chat_id: string; manifest: ManifestBody }> {
  const { tracker } = unlockedVault();
  await ready(tracker);
  return { chat_id: chatId, manifest: (await tracker.forDelete(chatId)).body };
}

export type CheckedChat = Awaited<ReturnType<typeof openChat>> & { integrity: string | null };

/** `integrity` is set when the chat fails its check but decrypts. @throws AppError */
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

export async function checkSealedChat(chat: SealedChatJson): Promise<string | null> {
  try {
    return await unlockedVault().tracker.checkChat(chat);
  } catch {
    return null;
  }
}

// The manifest is read before and after the list until both agree: another device's write would look like tampering.
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

export type OpenedChat = Awaited<ReturnType<typeof openChat>>;

export async function loadSavedChats(chatIds: readonly string[], onProgress?: (done: number) => void): Promise<OpenedChat[]> {
  const { key, userId, tracker } = unlockedVault();
  const opened = new Map<string, OpenedChat>();
  let done = 0;
  await forEachSealedChatBatch(chatIds, async (batch, settled) => {
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
