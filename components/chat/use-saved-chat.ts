"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { updateMessage, type BranchTree } from "@/lib/browser/chat/branches";
import type { ConversationDocument } from "@/lib/browser/chat/send-turn";
import { planSave, storedPath, treeForSaving, treeFromSaved } from "@/lib/browser/chat/saved-tree";
import { savedChats } from "@/lib/browser/vault/sealing-loaders";
import { lockVault, setHistoryOn } from "@/lib/browser/vault/store";
import { useVault } from "@/lib/browser/vault/use-vault";
import { displayNameFrom, SAVED_IMAGE_MAX_CHARS } from "@/lib/browser/vault/saved-chat-rules";
import type { VaultKey } from "@/lib/browser/vault/types";
import type { UiMessage } from "./types";
import { useChatHistory } from "./use-chat-history";
import { chatSearch, useChatSearch } from "./use-chat-search";

/** How long a version switch waits for the clicking to settle before it is saved, ms. */
const VERSION_SAVE_DELAY_MS = 700;

/** What `save` stores: the whole tree, the turn's user message (null for a version switch) and its PDF text. */
export interface SaveInput {
  chatId: string | null;
  tree: BranchTree<UiMessage>;
  userNodeId: string | null;
  document: ConversationDocument | null;
  /** The chat's documents when they are not the open conversation's (a visitor's chat kept after sign-in). */
  documents?: ConversationDocument[];
}

/** A saved chat opened from history, decrypted. */
export interface OpenedSavedChat {
  chatId: string;
  tree: BranchTree<UiMessage>;
  documents: ConversationDocument[];
  /** Null when the integrity check passed. */
  integrity: string | null;
}

/**
 * Saved history for the chat screen (docs/issues.md #8, docs/issues.md #9): the vault, the chat list and search,
 * and the sealing of the open chat in this browser. Saves run one after another, each planned against the last.
 */
export function useSavedChat(signedIn: boolean, documents: ConversationDocument[]) {
  const vault = useVault(signedIn);
  const userId = vault.info?.user_id ?? null;
  const vaultKey = useMemo<VaultKey | null>(() => (vault.key && userId ? { key: vault.key, userId } : null), [vault.key, userId]);
  const history = useChatHistory(signedIn, vaultKey);
  const search = useChatSearch(vaultKey);
  const saveHistory = signedIn && vault.info?.exists === true && vault.info.history_on;
  // The tree ids of the open chat's stored messages, in order (chat_save appends or replaces the rest).
  const savedIds = useRef<string[]>([]);
  const saveChain = useRef<Promise<unknown>>(Promise.resolve());
  const switchTimer = useRef<number | null>(null);
  const [historyIntegrity, setHistoryIntegrity] = useState<string | null>(null);
  useEffect(() => {
    if (!vaultKey) return;
    let live = true;
    savedChats()
      .then((m) => m.checkHistoryIntegrity())
      .then((problem) => live && setHistoryIntegrity(problem))
      .catch(() => console.error("Failed to check the history's integrity"));
    return () => {
      live = false;
      setHistoryIntegrity(null);
    };
  }, [vaultKey]);

  /** Seal and store the open chat's active path; resolves to the chat id. @throws VaultActionError */
  const save = (input: SaveInput): Promise<string> => {
    const job = saveChain.current.then(async () => {
      const { chatId, tree, userNodeId, document } = input;
      const path = storedPath(tree);
      const known = new Map((input.documents ?? documents).map((d) => [d.name, d]));
      const stored = path.map(({ id, message: m }) => ({
        role: m.role,
        content: m.content,
        attachment: savedImage(m) ?? (id === userNodeId && document ? document : m.attachmentName ? (known.get(m.attachmentName) ?? null) : null),
        ...(m.search ? { search: m.search } : {}),
        ...(m.tools?.length ? { tools: m.tools } : {}),
        ...(m.memoryUsed ? { memoryUsed: true } : {}),
      }));
      const title = displayNameFrom(path.map((n) => n.message));
      const plan = chatId === null ? { from: 0, replace: false } : planSave(savedIds.current, path);
      if (!plan) return chatId as string;
      const id = await (await savedChats()).saveTurn({ chatId, from: plan.from, replace: plan.replace, messages: stored, title, tree: treeForSaving(tree) });
      savedIds.current = path.map((n) => n.id);
      const name = history.chats.find((c) => c.chat_id === id)?.display_name ?? title;
      const lastUpdated = new Date().toISOString();
      history.touch({ chat_id: id, display_name: name, last_updated: lastUpdated });
      if (vaultKey) chatSearch.saved(vaultKey, { chat_id: id, title: name, messages: stored.map((m) => m.content), last_updated: lastUpdated });
      return id;
    });
    saveChain.current = job.catch(() => undefined);
    return job;
  };

  /** Save which version is shown once the clicking has settled, unless the user has left the chat. */
  const saveVersionSoon = (chatId: string, tree: BranchTree<UiMessage>, stillOpen: () => boolean, onError: () => void) => {
    if (!saveHistory || !vaultKey) return;
    if (switchTimer.current !== null) window.clearTimeout(switchTimer.current);
    switchTimer.current = window.setTimeout(() => {
      switchTimer.current = null;
      if (!stillOpen()) return;
      save({ chatId, tree, userNodeId: null, document: null }).catch(onError);
    }, VERSION_SAVE_DELAY_MS);
  };

  /** Fetch and decrypt a saved chat. @throws when locked, on a failed request or a chat that does not decrypt. */
  const open = async (id: string): Promise<OpenedSavedChat> => {
    if (!vaultKey) throw new Error("locked");
    const saved = await (await savedChats()).openSavedChat(id);
    let tree: BranchTree<UiMessage> = treeFromSaved(
      saved.tree,
      saved.messages.map(({ role, content, attachment, search, tools, memoryUsed }) => ({
        role,
        content,
        ...(attachment ? { attachmentName: attachment.name } : {}),
        ...(search ? { search } : {}),
        ...(tools ? { tools } : {}),
        ...(memoryUsed ? { memoryUsed } : {}),
      })),
    );
    storedPath(tree).forEach(({ id, message }, i) => {
      const image = saved.messages[i]?.attachment?.image;
      if (image) tree = updateMessage(tree, id, { ...message, file: { name: message.attachmentName ?? "image", text: "", truncated: false, notice: null, image } });
    });
    savedIds.current = storedPath(tree).map((n) => n.id);
    return { chatId: saved.chatId, tree, documents: saved.documents, integrity: saved.integrity };
  };

  return {
    vault,
    vaultKey,
    history,
    search,
    saveHistory,
    historyIntegrity,
    save,
    saveVersionSoon,
    open,
    startNew: () => {
      savedIds.current = [];
    },
    setSaveHistory: (on: boolean) => {
      if (vault.info?.exists) void setHistoryOn(on).catch(() => console.error("Failed to change Save history"));
    },
    lock: lockVault,
  };
}

/** A message's image as an attachment to seal, or undefined (none, or over SAVED_IMAGE_MAX_CHARS). */
function savedImage(m: UiMessage): { name: string; text: string; image: { url: string; width: number; height: number } } | undefined {
  const image = m.file?.image;
  if (!image || image.url.length > SAVED_IMAGE_MAX_CHARS) return undefined;
  return { name: m.attachmentName ?? m.file!.name, text: "", image: { url: image.url, width: image.width, height: image.height } };
}
