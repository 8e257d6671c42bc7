"use client";

import { useCallback, useEffect, useState } from "react";
import { openTitle } from "@/lib/vault/seal";

/** One saved chat of the list, its display name decrypted in this browser. */
export interface HistoryEntry {
  chat_id: string;
  display_name: string | null;
  last_updated: string;
}

interface SealedEntry {
  chat_id: string;
  display_name_ciphertext: string | null;
  last_updated: string;
}

/** The unlocked vault: the key and the user id bound into each ciphertext. */
export interface VaultKey {
  key: CryptoKey;
  userId: string;
}

const PAGE = 50;

async function fetchPage(vault: VaultKey, after: string | null): Promise<{ chat_history: HistoryEntry[]; next_cursor: string | null }> {
  const params = new URLSearchParams({ limit: String(PAGE) });
  if (after) params.set("cursor", after);
  const res = await fetch(`/api/ns/chat_history?${params}`, { cache: "no-store" });
  if (!res.ok) throw new Error(String(res.status));
  const page = (await res.json()) as { chat_history: SealedEntry[]; next_cursor: string | null };
  const chat_history = await Promise.all(
    page.chat_history.map(async (c) => ({
      chat_id: c.chat_id,
      last_updated: c.last_updated,
      display_name: await openTitle(vault.key, vault.userId, c.chat_id, c.display_name_ciphertext).catch(() => null),
    })),
  );
  return { chat_history, next_cursor: page.next_cursor };
}

/**
 * The signed-in user's saved chats, newest first, a page at a time, display names decrypted with the
 * vault key (issue 8); nothing loads while the vault is locked (`vault` null). Failures are only logged
 * (spec §8: history load and chat delete failures show no user message).
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
    // A locked vault shows nothing (the hook returns [] then); unlocking reloads the first page.
    if (signedIn && vault) load(vault, null);
  }, [signedIn, vault, load]);

  /** Put a chat that was just saved or appended to at the top. */
  const touch = useCallback((entry: HistoryEntry) => {
    setChats((prev) => [entry, ...prev.filter((c) => c.chat_id !== entry.chat_id)]);
  }, []);

  /** Delete a chat on the server; true when it is gone. */
  const remove = useCallback(async (chatId: string) => {
    try {
      const res = await fetch("/api/ns/delete_chat", {
        method: "DELETE",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ chat_id: chatId }),
      });
      if (!res.ok) throw new Error(String(res.status));
      setChats((prev) => prev.filter((c) => c.chat_id !== chatId));
      return true;
    } catch {
      console.error("Failed to delete chat");
      return false;
    }
  }, []);

  // A visitor has no history; what a signed-out session loaded is not shown.
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
  };
}
