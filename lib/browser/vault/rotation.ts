import type { apiFetch } from "@/lib/browser/api/client";
import type { Api, BodyOf, SealedChatJson } from "@/lib/shared/api/contract";
import { listSavedChatVersions } from "./sealed-chat-batches";
import { AppError, isAppError } from "@/lib/shared/errors";
import { encryptField, fromBase64, importVaultKey, integrityKey, sha256Hex, toBase64, wrapNextKey } from "./crypto";
import { extendChain, sealHeader, type ChatState } from "./integrity";
import type { IntegrityTracker } from "./integrity-tracker";
import { resealProjects } from "./projects";
import { resealMemory } from "./memory";
import { resealProjectFiles } from "./project-files";
import { openChat, passphraseMethod, recoveryMethod, sealTurn, type MethodJson } from "./seal";

// "Rotate vault key" in the browser: a new key and methods, every chat checked and sealed again, then the old methods
// dropped. Resumable: the next key is stored wrapped under the current one, so a later unlock finishes it.

type ApiCall = typeof apiFetch;

export interface CurrentKey {
  userId: string;
  raw: Uint8Array<ArrayBuffer>;
  key: CryptoKey;
  tracker: IntegrityTracker;
}

export interface RotationDraft {
  generation: number;
  next: Uint8Array<ArrayBuffer>;
  code: string;
  methods: MethodJson[];
}

export type RotationProgress = (done: number, total: number) => void;

export async function draftRotation(userId: string, generation: number, next: Uint8Array<ArrayBuffer>, passphrase: string | null): Promise<RotationDraft> {
  const recovery = await recoveryMethod(next, userId);
  const methods = passphrase ? [await passphraseMethod(next, userId, passphrase), recovery.method] : [recovery.method];
  return { generation, next, code: recovery.code, methods };
}

export async function startRotation(api: ApiCall, current: CurrentKey, draft: RotationDraft): Promise<void> {
  const nextKey = toBase64(await wrapNextKey(draft.next, current.raw, { userId: current.userId, generation: draft.generation }));
  await api("vaultRotationStart", { body: { generation: draft.generation, next_key: nextKey, methods: draft.methods } });
}

export async function resealChat(
  current: CurrentKey,
  next: { key: CryptoKey; integrity: CryptoKey },
  chat: SealedChatJson,
): Promise<BodyOf<Api["vaultRotationChats"]>["chats"][number]> {
  const { userId } = current;
  const opened = await openChat(current.key, userId, chat);
  const chatId = chat.chat_id;
  const turn = await sealTurn({ key: next.key, userId, chatId, create: true, firstPosition: 0, messages: opened.messages, title: opened.title });
  const tree = opened.tree === null ? null : toBase64(await encryptField(next.key, { field: "tree", userId, chatId }, opened.tree));
  const hash = async (b64: string | null) => (b64 ? sha256Hex(fromBase64(b64)) : null);
  const state: ChatState = {
    version: chat.version ?? 0,
    chain: await extendChain(chatId, [], turn.messages),
    title: await hash(turn.title_ciphertext),
    tree: await hash(tree),
  };
  return {
    chat_id: chatId,
    base_version: chat.version ?? 0,
    title_ciphertext: turn.title_ciphertext,
    tree_ciphertext: tree,
    header_ciphertext: await sealHeader(next.integrity, userId, chatId, state),
    messages: turn.messages,
  };
}

const integrityError = (message: string) => new AppError("unprocessable:integrity", message);

const BATCH = 20;

/** Seal every chat still under the old key again under `next`, then finish. @throws AppError */
export async function completeRotation(api: ApiCall, current: CurrentKey, nextRaw: Uint8Array<ArrayBuffer>, generation: number, onProgress?: RotationProgress) {
  const next = { key: await importVaultKey(nextRaw), integrity: await integrityKey(nextRaw) };
  let done = 0;
  for (let round = 0; round < 5; round++) {
    const { remaining_chat_ids: remaining } = await api("vaultRotation");
    const total = done + remaining.length;
    onProgress?.(done, total);
    const queue = [...remaining];
    while (queue.length) {
      const ids = queue.splice(0, BATCH);
      const batch = await api("chatHistoryBatch", { body: { chat_ids: ids } });
      queue.unshift(...batch.remaining_chat_ids);
      const chats = [];
      for (const chat of batch.chats) {
        const problem = await current.tracker.checkChat(chat);
        if (problem) throw integrityError(problem);
        chats.push(await resealChat(current, next, chat));
      }
      if (chats.length) {
        const { stored_chat_ids } = await api("vaultRotationChats", { body: { generation, chats } });
        done += stored_chat_ids.length;
      }
      onProgress?.(done, total);
    }
    try {
      const problem = await current.tracker.adoptManifest((await api("vaultGet")).manifest);
      if (problem) throw integrityError(problem);
      if (!current.tracker.ready) await current.tracker.adoptList(await listSavedChatVersions(api));
      const manifest = await current.tracker.manifestUnder(next.integrity);
      await resealProjects(api, current.userId, current.key, next.key);
      await resealMemory(api, current.userId, current.key, next.key);
      await resealProjectFiles(api, current.userId, current.key, next.key);
      return await api("vaultRotationFinish", { body: { generation, manifest } });
    } catch (error) {
      // Chats or a manifest written meanwhile (409): another round.
      if (!isAppError(error, "conflict")) throw error;
    }
  }
  throw new AppError("conflict:rotation", "Your history kept changing during the key rotation. It finishes at the next unlock.");
}
