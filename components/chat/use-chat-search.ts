"use client";

import { useCallback, useEffect, useSyncExternalStore } from "react";
import { ChatSearchIndex, type ChatSearchHit, type SearchableChat } from "@/lib/chat/search";
import { apiFetch } from "@/lib/api/client";
import type { ChatHistoryPage } from "@/lib/api/contract";
import { forEachSealedChatBatch } from "@/lib/vault/vault-api";
import { openChat, openTitle } from "@/lib/vault/seal";
import { checkSealedChat } from "@/lib/vault/saved-chats";
import type { VaultKey } from "./types";

/**
 * The index behind "Search chats" (docs/issues.md #9 History), built in this browser: when search opens, every
 * page of the chat list is fetched, then the chats not yet indexed (or changed since) are fetched in
 * batches of 50, the first two of 10 (POST /api/ns/chat_history/batch, two requests at a time, docs/issues.md #9),
 * decrypted with the vault key and added as they arrive, so results grow while it loads. The decrypted index lives only in this tab's memory for the vault session: it is dropped when
 * the vault locks or another key unlocks, and kept current by saved turns, renames and deletions.
 * Nothing decrypted leaves the browser.
 */

const PAGE = 100;
/** Least time between two screen updates while chats are being indexed, in ms. */
const PROGRESS_MS = 150;

export interface SearchState {
  status: "idle" | "loading" | "ready" | "error";
  /** Chats indexed so far, and how many the list has (0 until the list is read). */
  indexed: number;
  total: number;
  /** Bumped on every change of the index, so results are recomputed. */
  version: number;
}

class SearchStore {
  index = new ChatSearchIndex();
  private key: CryptoKey | null = null;
  private run = 0;
  state: SearchState = { status: "idle", indexed: 0, total: 0, version: 0 };
  private listeners = new Set<() => void>();

  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  };

  private timer: ReturnType<typeof setTimeout> | null = null;

  private set(patch: Partial<SearchState>) {
    this.state = { ...this.state, ...patch, version: this.state.version + 1 };
    this.emit();
  }

  private emit() {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    for (const l of this.listeners) l();
  }

  /**
   * While indexing, one chat after another: the state changes at once but the screen (progress line
   * and results) is told at most every PROGRESS_MS, not once per chat.
   */
  private progress(patch: Partial<SearchState>) {
    this.state = { ...this.state, ...patch, version: this.state.version + 1 };
    this.timer ??= setTimeout(() => this.emit(), PROGRESS_MS);
  }

  /** Forget everything decrypted (vault locked, or another key). */
  reset(key: CryptoKey | null) {
    this.key = key;
    this.run++;
    this.index = new ChatSearchIndex();
    this.set({ status: "idle", indexed: 0, total: 0 });
  }

  private forKey(key: CryptoKey) {
    if (this.key !== key) this.reset(key);
  }

  /** Bring the index up to date with the server's list (called each time search opens). */
  async sync(vault: VaultKey): Promise<void> {
    this.forKey(vault.key);
    if (this.state.status === "loading") return;
    const run = ++this.run;
    this.set({ status: "loading" });
    try {
      const listed: { chat_id: string; display_name_ciphertext: string | null; last_updated: string }[] = [];
      let cursor: string | null = null;
      do {
        const page: ChatHistoryPage = await apiFetch("chatHistoryList", { query: { limit: PAGE, cursor } });
        listed.push(...page.chat_history);
        cursor = page.next_cursor;
        if (run !== this.run) return;
      } while (cursor);

      const ids = new Set(listed.map((c) => c.chat_id));
      for (const id of this.index.ids()) if (!ids.has(id)) this.index.remove(id);
      const todo: typeof listed = [];
      for (const c of listed) {
        const have = this.index.get(c.chat_id);
        if (!have || have.last_updated !== c.last_updated) todo.push(c);
        else {
          // Same content; the title may have been renamed elsewhere.
          const title = await openTitle(vault.key, vault.userId, c.chat_id, c.display_name_ciphertext).catch(() => have.title);
          if (title !== have.title) this.index.rename(c.chat_id, title ?? "");
        }
      }
      this.set({ total: listed.length, indexed: listed.length - todo.length });

      let failed = 0;
      const tick = (n: number) => {
        if (run === this.run && n > 0) this.progress({ indexed: this.state.indexed + n });
      };
      await forEachSealedChatBatch(
        todo.map((c) => c.chat_id),
        async (batch, settled) => {
          await Promise.all(
            batch.chats.map(async (sealed) => {
              try {
                // docs/issues.md #21: a chat that fails its integrity check is not searched (opening it shows why).
                if (await checkSealedChat(sealed)) return;
                const chat = await openChat(vault.key, vault.userId, sealed);
                if (run !== this.run) return;
                this.index.upsert({
                  chat_id: chat.chatId,
                  title: chat.title,
                  messages: chat.messages.filter((m) => m.role !== "system").map((m) => m.content),
                  last_updated: sealed.last_updated,
                });
              } catch {
                failed++;
              }
              tick(1);
            }),
          );
          // Settled but not returned: deleted since the list was read.
          tick(settled.length - batch.chats.length);
        },
        {
          stop: () => run !== this.run,
          onError: (ids) => {
            failed += ids.length;
            tick(ids.length);
          },
        },
      );
      if (run !== this.run) return;
      if (failed) console.error(`Failed to index ${failed} chat(s) for search`);
      this.set({ status: "ready" });
    } catch {
      if (run !== this.run) return;
      console.error("Failed to load chats for search");
      this.set({ status: "error" });
    }
  }

  /** A chat saved or appended to in this tab (only when already indexing: else the next sync reads it). */
  saved(vault: VaultKey, chat: SearchableChat) {
    if (this.key !== vault.key || this.state.status === "idle") return;
    this.index.upsert(chat);
    this.set({ total: Math.max(this.state.total, this.index.size), indexed: Math.max(this.state.indexed, this.index.size) });
  }

  renamed(chatId: string, title: string) {
    if (!this.index.get(chatId)) return;
    this.index.rename(chatId, title);
    this.set({});
  }

  deleted(chatId: string) {
    if (!this.index.get(chatId)) return;
    this.index.remove(chatId);
    this.set({ total: Math.max(0, this.state.total - 1), indexed: Math.max(0, this.state.indexed - 1) });
  }
}

/** The tab's one search index. */
export const chatSearch = new SearchStore();

const idle = chatSearch.state;

/**
 * The search index's state for the unlocked vault (`vault` null: locked or signed out, nothing is
 * kept), with `sync` to bring it up to date and `search` to query it.
 */
export function useChatSearch(vault: VaultKey | null) {
  const state = useSyncExternalStore(chatSearch.subscribe, () => chatSearch.state, () => idle);
  // Locked or signed out: what was decrypted for search is dropped.
  useEffect(() => {
    if (!vault) chatSearch.reset(null);
  }, [vault]);
  const sync = useCallback(() => {
    if (vault) void chatSearch.sync(vault);
  }, [vault]);
  const search = useCallback(
    (query: string, exclude: ReadonlySet<string>): ChatSearchHit[] => (vault ? chatSearch.index.search(query, { limit: 30, exclude }) : []),
    [vault],
  );
  return { state, sync, search };
}
