"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { updateMessage, type BranchTree } from "@/lib/browser/chat/branches";
import type { ConversationDocument } from "@/lib/browser/chat/send-turn";
import { planSave, storedPath, treeForSaving, treeFromSaved } from "@/lib/browser/chat/saved-tree";
import { savedChats } from "@/lib/browser/vault/lazy";
import { lockVault, setHistoryOn } from "@/lib/browser/vault/store";
import { useVault } from "@/lib/browser/vault/use-vault";
import { displayNameFrom, SAVED_IMAGE_MAX_CHARS } from "@/lib/browser/vault/plain";
import type { UiMessage, VaultKey } from "./types";
import { useChatHistory } from "./use-chat-history";
import { chatSearch, useChatSearch } from "./use-chat-search";

/** How long a version switch waits for the clicking to settle before it is saved, in ms. */
const VERSION_SAVE_DELAY_MS = 700;

/** What `save` stores: the whole tree (its active path is stored), the turn's user message and its PDF text. */
export interface SaveInput {
  chatId: string | null;
  tree: BranchTree<UiMessage>;
  /** The id of the answered turn's user message (null for a version switch: no new document). */
  userNodeId: string | null;
  document: ConversationDocument | null;
  /** The chat's documents when they are not yet the open conversation's (a visitor's chat kept after sign-in). */
  documents?: ConversationDocument[];
}

/** A saved chat opened from history, decrypted: its tree of versions and its documents. */
export interface OpenedSavedChat {
  chatId: string;
  tree: BranchTree<UiMessage>;
  documents: ConversationDocument[];
  /** The integrity warning of this chat (shown with it), null when it passed. */
  integrity: string | null;
}

/**
 * Saved history for the chat screen (docs/issues.md #8 vault, docs/issues.md #9 versions): the vault store and its unlocked
 * key, the chat list and search index read with it, and the saving of the open chat. A finished turn is
 * sealed in this browser and stored by POST /api/ns/chat_save (the server never sees it in clear except
 * on its way to the model). An edit, a regenerate or a version switch replaces the stored path from
 * where it changed, and the whole tree of versions is sealed with it (lib/browser/chat/saved-tree.ts). Saves run
 * one after another, each planned against what the previous one stored.
 * `documents` are the open conversation's documents, stored (sealed) with the messages that carried them.
 */
export function useSavedChat(signedIn: boolean, documents: ConversationDocument[]) {
  // The key is in this tab's memory once unlocked.
  const vault = useVault(signedIn);
  const userId = vault.info?.user_id ?? null;
  const vaultKey = useMemo<VaultKey | null>(() => (vault.key && userId ? { key: vault.key, userId } : null), [vault.key, userId]);
  const history = useChatHistory(signedIn, vaultKey);
  const search = useChatSearch(vaultKey);
  // The Save history choice is remembered for the account once the vault exists.
  const saveHistory = signedIn && vault.info?.exists === true && vault.info.history_on;
  // The tree ids of the open chat's stored messages, in order (chat_save appends or replaces the rest).
  const savedIds = useRef<string[]>([]);
  const saveChain = useRef<Promise<unknown>>(Promise.resolve());
  const switchTimer = useRef<number | null>(null);
  // The whole list checked against the sealed manifest once per unlock.
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

  /**
   * Seal and store the open chat's active path after `input.tree` changed. Resolves to the chat id (made
   * here for a new chat). @throws VaultActionError (locked, network, refused)
   */
  const save = (input: SaveInput): Promise<string> => {
    const job = saveChain.current.then(async () => {
      const { chatId, tree, userNodeId, document } = input;
      const path = storedPath(tree);
      const known = new Map((input.documents ?? documents).map((d) => [d.name, d]));
      const stored = path.map(({ id, message: m }) => ({
        role: m.role,
        content: m.content,
        attachment: savedImage(m) ?? (id === userNodeId && document ? document : m.attachmentName ? (known.get(m.attachmentName) ?? null) : null),
        // An answer's steps (sources and queries, device tools) are sealed with it.
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
      // An index built for search this session follows the saved turn.
      if (vaultKey) chatSearch.saved(vaultKey, { chat_id: id, title: name, messages: stored.map((m) => m.content), last_updated: lastUpdated });
      return id;
    });
    saveChain.current = job.catch(() => undefined);
    return job;
  };

  /**
   * Remember which version is shown in a saved chat (what reopens is what was shown), once the clicking
   * has settled; skipped when `stillOpen()` says the user has moved to another chat meanwhile.
   * `onError` runs when the save fails.
   */
  const saveVersionSoon = (chatId: string, tree: BranchTree<UiMessage>, stillOpen: () => boolean, onError: () => void) => {
    if (!saveHistory || !vaultKey) return;
    if (switchTimer.current !== null) window.clearTimeout(switchTimer.current);
    switchTimer.current = window.setTimeout(() => {
      switchTimer.current = null;
      if (!stillOpen()) return;
      save({ chatId, tree, userNodeId: null, document: null }).catch(onError);
    }, VERSION_SAVE_DELAY_MS);
  };

  /**
   * Fetch and decrypt a saved chat: the stored versions come back switchable ("2 / 2") as before the
   * reload, with the documents stored (encrypted) with it. @throws when locked, on a failed request or
   * a chat that does not decrypt.
   */
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
    // An image sealed with its message comes back on it (thumbnail, and follow-ups send it again).
    storedPath(tree).forEach(({ id, message }, i) => {
      const image = saved.messages[i]?.attachment?.image;
      if (image) tree = updateMessage(tree, id, { ...message, file: { name: message.attachmentName ?? "image", text: "", truncated: false, notice: null, image } });
    });
    savedIds.current = storedPath(tree).map((n) => n.id);
    return { chatId: saved.chatId, tree, documents: saved.documents, integrity: saved.integrity };
  };

  return {
    vault,
    /** The unlocked vault (key and user id), or null: locked, no vault or signed out. */
    vaultKey,
    history,
    search,
    /** Whether answered turns are saved (signed in, a vault, Save history on). */
    saveHistory,
    /** The warning when the list of saved chats failed its check against the manifest. */
    historyIntegrity,
    save,
    saveVersionSoon,
    open,
    /** The open chat is new (New chat): nothing of it is stored yet. */
    startNew: () => {
      savedIds.current = [];
    },
    /** Remember the Save history toggle for the account (only once the vault exists). */
    setSaveHistory: (on: boolean) => {
      if (vault.info?.exists) void setHistoryOn(on).catch(() => console.error("Failed to change Save history"));
    },
    /** Forget the vault key in this tab (the Lock action). */
    lock: lockVault,
  };
}

/**
 * The attachment that seals a message's image with the chat, or undefined (no image, or one
 * too large to seal: SAVED_IMAGE_MAX_CHARS; it is then kept by name only, and the chat says so).
 */
function savedImage(m: UiMessage): { name: string; text: string; image: { url: string; width: number; height: number } } | undefined {
  const image = m.file?.image;
  if (!image || image.url.length > SAVED_IMAGE_MAX_CHARS) return undefined;
  return { name: m.attachmentName ?? m.file!.name, text: "", image: { url: image.url, width: image.width, height: image.height } };
}
