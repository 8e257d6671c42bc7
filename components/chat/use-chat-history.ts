"use client";

import { useCallback, useEffect, useState } from "react";

/** One saved chat as GET /api/ns/chat_history lists it. */
export interface HistoryEntry {
  chat_id: string;
  display_name: string | null;
  last_updated: string;
}

const PAGE = 50;

async function fetchPage(after: string | null): Promise<{ chat_history: HistoryEntry[]; next_cursor: string | null }> {
  const params = new URLSearchParams({ limit: String(PAGE) });
  if (after) params.set("cursor", after);
  const res = await fetch(`/api/ns/chat_history?${params}`, { cache: "no-store" });
  if (!res.ok) throw new Error(String(res.status));
  return (await res.json()) as { chat_history: HistoryEntry[]; next_cursor: string | null };
}

/**
 * The signed-in user's saved chats, newest first, a page at a time. Failures are only logged
 * (spec §8: history load and chat delete failures show no user message).
 */
export function useChatHistory(signedIn: boolean) {
  const [chats, setChats] = useState<HistoryEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  // The first page starts loading as soon as a user is known; later pages set it themselves.
  const [loading, setLoading] = useState(true);

  const load = useCallback((after: string | null) => {
    fetchPage(after)
      .then((page) => {
        setChats((prev) => (after ? [...prev, ...page.chat_history] : page.chat_history));
        setCursor(page.next_cursor);
      })
      .catch(() => console.error("Failed to load chat history"))
      .finally(() => setLoading(false));
  }, []);

  useEffect(() => {
    if (signedIn) load(null);
  }, [signedIn, load]);

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
    chats: signedIn ? chats : [],
    loading: signedIn && loading,
    hasMore: signedIn && cursor !== null,
    loadMore: () => {
      if (!cursor || loading) return;
      setLoading(true);
      load(cursor);
    },
    touch,
    remove,
  };
}
