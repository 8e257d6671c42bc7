"use client";

import { useEffect, useRef, useState } from "react";
import { switchVersion } from "@/lib/browser/chat/branches";
import { isAppError } from "@/lib/shared/errors";
import { toast } from "@/components/ui/toaster";
import type { HistoryEntry } from "./use-chat-history";
import type { useConversation } from "./use-conversation";
import type { useConversationDocuments } from "./use-documents";
import type { useDraft } from "./use-draft";
import type { useSavedChat } from "./use-saved-chat";

const SMALL_SCREEN = "(max-width: 767px)";
/** How long a chat deletion can be undone, ms. */
const UNDO_MS = 5000;

/** Whether the screen is a phone's, where the history sidebar is a drawer over the chat. */
const isSmallScreen = () => window.matchMedia(SMALL_SCREEN).matches;

interface Options {
  chat: ReturnType<typeof useConversation>;
  saved: ReturnType<typeof useSavedChat>;
  drafts: ReturnType<typeof useDraft>;
  documents: ReturnType<typeof useConversationDocuments>;
  removeStaged: () => void;
  endTemporary: () => void;
}

/** Which chat is open and the actions that change it, with the sidebar's open state (null until toggled). */
export function useOpenChat({ chat, saved, drafts, documents, removeStaged, endTemporary }: Options) {
  const { history } = saved;
  const [chatIntegrity, setChatIntegrity] = useState<string | null>(null);
  const [sidebarOpen, setSidebarOpen] = useState<boolean | null>(null);
  const openChatId = useRef<string | null>(null);
  useEffect(() => {
    openChatId.current = chat.chatId;
  }, [chat.chatId]);

  const stepVersion = (id: string, step: number) => {
    const next = switchVersion(chat.tree, id, step);
    chat.switchVersion(id, step);
    const chatId = chat.chatId;
    if (!chatId || chat.busy || next === chat.tree) return;
    saved.saveVersionSoon(
      chatId,
      next,
      () => openChatId.current === chatId,
      () => toast.error("Could not save which version is shown"),
    );
  };

  const toggleSidebar = () => setSidebarOpen((open) => !(open ?? !isSmallScreen()));

  const clearChat = () => {
    drafts.switchTo(null);
    setChatIntegrity(null);
    chat.load([], null);
    saved.startNew();
    documents.reset();
    removeStaged();
    endTemporary();
  };
  const newChat = () => {
    clearChat();
    // On phones the history is a drawer over the chat.
    if (isSmallScreen()) setSidebarOpen(false);
  };

  const pickChat = async (id: string) => {
    if (isSmallScreen()) setSidebarOpen(false);
    if (id === chat.chatId) return;
    chat.cancel();
    endTemporary();
    try {
      const opened = await saved.open(id);
      drafts.switchTo(opened.chatId);
      chat.load(opened.tree, opened.chatId);
      setChatIntegrity(opened.integrity);
      documents.reset(opened.documents);
      removeStaged();
    } catch (error) {
      if (isAppError(error, "unprocessable:integrity")) {
        chat.load([], null);
        saved.startNew();
        setChatIntegrity(error.message);
      } else console.error("Failed to load chat");
    }
  };

  const deleteChat = async (entry: HistoryEntry) => {
    if (entry.chat_id === chat.chatId) newChat();
    const undo = await history.remove(entry, UNDO_MS);
    const name = entry.display_name || "Untitled Chat";
    toast(`Deleted “${name.length > 40 ? `${name.slice(0, 39)}…` : name}”`, {
      duration: UNDO_MS,
      action: {
        label: "Undo",
        onClick: () => {
          if (undo()) toast.success("Chat restored");
          else toast.error("Too late to undo: the chat was already deleted");
        },
      },
    });
  };

  const renameChat = async (chatId: string, title: string) => {
    const ok = await history.rename(chatId, title);
    if (ok) toast.success("Chat renamed");
    else toast.error("Could not rename the chat. Check your connection and try again.");
    return ok;
  };

  return { chatIntegrity, sidebarOpen, setSidebarOpen, toggleSidebar, stepVersion, clearChat, newChat, pickChat, deleteChat, renameChat };
}
