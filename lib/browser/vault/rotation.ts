import type { apiFetch } from "@/lib/browser/api/client";
import type { SealedChatJson } from "@/lib/shared/api/contract";
import { listSavedChatVersions } from "./sealed-chat-batches";
import { AppError, isAppError } from "@/lib/shared/errors";
import { encryptField, fromBase64, importVaultKey, integrityKey, sha256Hex, toBase64, wrapNextKey } from "./crypto";
import { extendChain, sealHeader, type ChatState } from "./integrity";
import type { IntegrityTracker } from "./integrity-tracker";
import { resealProjects } from "./projects";
import { resealMemory } from "./memory";
import { resealProjectFiles } from "./project-files";
import { openChat, passphraseMethod, recoveryMethod, sealTurn, type MethodJson } from "./seal";

/**
 * "Rotate vault key", run in the browser (and by tests acting as one): a new vault key, its
 * unlock methods, every saved chat opened under the old key and sealed again under the new one, then the
 * server drops the old methods (lib/server/db/vault-rotation.ts). Resumable: the next key is stored wrapped under
 * the current one, so any later unlock reads what is left and finishes. Every chat is checked against
 * its header before it is sealed again, so a rotation never blesses a tampered chat.
 * `api` is the typed client (lib/browser/api/client.ts apiFetch); tests pass one over the route handlers.
 */

type Api = typeof apiFetch;

/** What a rotation needs from the unlocked vault: the user, the current key (raw and as a key) and its tracker. */
export interface CurrentKey {
  userId: string;
  raw: Uint8Array<ArrayBuffer>;
  key: CryptoKey;
  tracker: IntegrityTracker;
}

/** A rotation drafted in the browser: nothing is sent until `startRotation`. Show `code` once. */
export interface RotationDraft {
  generation: number;
  next: Uint8Array<ArrayBuffer>;
  code: string;
  methods: MethodJson[];
}

/** Progress of the re-sealing: chats done of the total. */
export type RotationProgress = (done: number, total: number) => void;

/**
 * Draft a rotation: a new key, a new recovery code and, when `passphrase` is given (checked by the
 * caller), a passphrase wrap at today's Argon2id parameters.
 */
export async function draftRotation(userId: string, generation: number, next: Uint8Array<ArrayBuffer>, passphrase: string | null): Promise<RotationDraft> {
  const recovery = await recoveryMethod(next, userId);
  const methods = passphrase ? [await passphraseMethod(next, userId, passphrase), recovery.method] : [recovery.method];
  return { generation, next, code: recovery.code, methods };
}

/** Send the draft: the next key wrapped under the current one, and the new methods (waiting). @throws AppError */
export async function startRotation(api: Api, current: CurrentKey, draft: RotationDraft): Promise<void> {
  const nextKey = toBase64(await wrapNextKey(draft.next, current.raw, { userId: current.userId, generation: draft.generation }));
  await api("vaultRotationStart", { body: { generation: draft.generation, next_key: nextKey, methods: draft.methods } as never });
}

/**
 * One chat opened under the old key and sealed under the next: every message at its position, the title,
 * the tree, and a header of the same version under the next integrity key.
 */
export async function resealChat(current: CurrentKey, next: { key: CryptoKey; integrity: CryptoKey }, chat: SealedChatJson) {
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

/** Chats read per batch request while re-sealing. */
const BATCH = 20;

/**
 * Seal every chat still under the old key again under `next`, then finish (the server refuses to finish
 * while chats are left, e.g. ones another tab saved meanwhile: they are read and sealed in turn).
 * @throws AppError (network, refused, "unprocessable:integrity" for a chat that fails its check)
 */
export async function completeRotation(api: Api, current: CurrentKey, nextRaw: Uint8Array<ArrayBuffer>, generation: number, onProgress?: RotationProgress) {
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
        const { stored_chat_ids } = await api("vaultRotationChats", { body: { generation, chats } as never });
        done += stored_chat_ids.length;
      }
      onProgress?.(done, total);
    }
    try {
      const problem = await current.tracker.adoptManifest((await api("vaultGet")).manifest);
      if (problem) throw integrityError(problem);
      // A vault without a manifest yet: the list is taken as it is (as lib/browser/vault/saved-chats.ts does).
      if (!current.tracker.ready) await current.tracker.adoptList(await listSavedChatVersions(api));
      const manifest = await current.tracker.manifestUnder(next.integrity);
      // Projects' names and instructions too, before the old key's methods go.
      await resealProjects(api, current.userId, current.key, next.key);
      // Memories (docs/issues.md #41) too.
      await resealMemory(api, current.userId, current.key, next.key);
      // Project files (docs/issues.md #41) too.
      await resealProjectFiles(api, current.userId, current.key, next.key);
      return await api("vaultRotationFinish", { body: { generation, manifest } as never });
    } catch (error) {
      // Chats saved meanwhile under the old key, or a manifest written meanwhile: another round.
      // (The client sees a 409's status and message, not the server's code.)
      if (!isAppError(error, "conflict")) throw error;
    }
  }
  throw new AppError("conflict:rotation", "Your history kept changing during the key rotation. It finishes at the next unlock.");
}
