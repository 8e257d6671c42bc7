"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { apiFetch } from "@/lib/browser/api/client";
import { removeDraft } from "@/lib/browser/chat/drafts";
import { savedChats, sealing } from "@/lib/browser/vault/sealing-loaders";
import type { prepareDeleteBody } from "@/lib/browser/vault/saved-chats";
import type { VaultKey } from "@/lib/browser/vault/types";
import { chatSearch } from "./use-chat-search";

/** A saved chat of the list, its name decrypted in this browser. */
export interface HistoryEntry {
  chat_id: string;
  display_name: string | null;
  last_updated: string;
}

const PAGE = 50;

async function fetchPage(vault: VaultKey, after: string | null): Promise<{ chat_history: HistoryEntry[]; next_cursor: string | null }> {
  const [page, { openTitle }] = await Promise.all([apiFetch("chatHistoryList", { query: { limit: PAGE, cursor: after } }), sealing()]);
  const chat_history = await Promise.all(
    page.chat_history.map(async (c) => ({
      chat_id: c.chat_id,
      last_updated: c.last_updated,
      display_name: await openTitle(vault.key, vault.userId, c.chat_id, c.display_name_ciphertext).catch(() => null),
    })),
  );
  return { chat_history, next_cursor: page.next_cursor };
}

/** A deletion waiting out its undo window; `owner`: the user whose sealed draft of the chat goes with it. */
interface PendingDelete {
  entry: HistoryEntry;
  timer: number;
  owner: string | null;
  body: Awaited<ReturnType<typeof prepareDeleteBody>> | null;
}

/** `chats` with `entry` put back in its place (newest first, docs/product.md §2). */
function withEntryRestored(chats: HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  if (chats.some((c) => c.chat_id === entry.chat_id)) return chats;
  const at = chats.findIndex((c) => c.last_updated < entry.last_updated);
  return at < 0 ? [...chats, entry] : [...chats.slice(0, at), entry, ...chats.slice(at)];
}

/**
 * The signed-in user's saved chats, newest first, a page at a time; nothing loads while `vault` is null.
 * Failures are only logged (docs/product.md §8).
 */
export function useChatHistory(signedIn: boolean, vault: VaultKey | null) {
  const [chats, setChats] = useState<HistoryEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  // The first page starts loading as soon as a user is known; later pages set it themselves.
  const [loading, setLoading] = useState(true);

  const load = useCallback((vault: VaultKey, after: string | null) => {
    fetchPage(vault, after)
      .then((page) => {
        setChats((prev) => (after ? [...prev, ...page.chat_history] : page.chat_history));
        setCursor(page.next_cursor);
      })
      .catch(() => console.error("Failed to load chat history"))
      .finally(() => setLoading(false));
  }, []);

  useEffect(() => {
    if (signedIn && vault) load(vault, null);
  }, [signedIn, vault, load]);

  const touch = useCallback((entry: HistoryEntry) => {
    setChats((prev) => [entry, ...prev.filter((c) => c.chat_id !== entry.chat_id)]);
  }, []);

  const pending = useRef(new Map<string, PendingDelete>());
  const [pendingIds, setPendingIds] = useState<ReadonlySet<string>>(new Set());
  const syncPending = () => setPendingIds(new Set(pending.current.keys()));

  const restore = useCallback((entry: HistoryEntry) => setChats((prev) => withEntryRestored(prev, entry)), []);

  const sendDelete = useCallback(
    (chatId: string, leaving: boolean) => {
      const item = pending.current.get(chatId);
      if (!item) return;
      window.clearTimeout(item.timer);
      pending.current.delete(chatId);
      if (item.owner) removeDraft(item.owner, chatId);
      // keepalive always: a delete already on its way is not cancelled by a reload or by leaving the page.
      const request = leaving && item.body ? apiFetch("deleteChat", { body: item.body, keepalive: true }).then(() => undefined) : savedChats().then((m) => m.deleteSavedChat(chatId, true));
      if (leaving) {
        request.catch(() => console.error("Failed to delete chat"));
        return;
      }
      syncPending();
      request
        .then(() => chatSearch.deleted(chatId))
        .catch(() => {
          // docs/product.md §8: a failed delete is only logged; the chat, still there, comes back to the list.
          console.error("Failed to delete chat");
          restore(item.entry);
        });
    },
    [restore],
  );

  /**
   * Delete a chat after `delayMs` unless undone; leaving the page inside the window sends it at once.
   * @returns undo: puts the chat back and sends nothing.
   */
  const remove = useCallback(
    async (entry: HistoryEntry, delayMs: number) => {
      // Sealed now: a page left inside the undo window has no time to seal it. Null: sent the slow way.
      const body = await savedChats()
        .then((m) => m.prepareDeleteBody(entry.chat_id))
        .catch(() => null);
      setChats((prev) => prev.filter((c) => c.chat_id !== entry.chat_id));
      const timer = window.setTimeout(() => sendDelete(entry.chat_id, false), delayMs);
      const item: PendingDelete = { entry, timer, owner: vault?.userId ?? null, body };
      pending.current.set(entry.chat_id, item);
      syncPending();
      return () => {
        const item = pending.current.get(entry.chat_id);
        if (!item) return false;
        window.clearTimeout(item.timer);
        pending.current.delete(entry.chat_id);
        syncPending();
        restore(item.entry);
        return true;
      };
    },
    [sendDelete, restore, vault?.userId],
  );

  useEffect(() => {
    const flush = () => {
      for (const id of [...pending.current.keys()]) sendDelete(id, true);
    };
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, [sendDelete]);

  /** Rename a chat (sealed here); on failure the old name comes back. @returns whether the server stored it. */
  const rename = useCallback(
    async (chatId: string, title: string) => {
      const before = chats.find((c) => c.chat_id === chatId);
      if (!vault || !before) return false;
      setChats((prev) => prev.map((c) => (c.chat_id === chatId ? { ...c, display_name: title } : c)));
      try {
        await (await savedChats()).renameSavedChat(chatId, title);
        chatSearch.renamed(chatId, title);
        return true;
      } catch {
        console.error("Failed to rename chat");
        setChats((prev) => prev.map((c) => (c.chat_id === chatId ? { ...c, display_name: before.display_name } : c)));
        return false;
      }
    },
    [chats, vault],
  );

  return {
    chats: signedIn && vault ? chats : [],
    loading: signedIn && vault !== null && loading,
    hasMore: signedIn && vault !== null && cursor !== null,
    loadMore: () => {
      if (!cursor || loading || !vault) return;
      setLoading(true);
      load(vault, cursor);
    },
    touch,
    remove,
    rename,
    pendingIds,
  };
}
