"use client";

import { toast } from "@/components/ui/toaster";
import type { useConversation } from "./use-conversation";
import type { useOpenChat } from "./use-open-chat";
import { useShortcuts } from "./use-shortcuts";
import type { UiMessage } from "./types";

interface Options {
  chat: ReturnType<typeof useConversation>;
  open: ReturnType<typeof useOpenChat>;
  shown: readonly { message: UiMessage }[];
  searchOpen: boolean;
  openSearch: (open: boolean) => void;
  unlocked: boolean;
}

/** The chat's keyboard shortcuts (./use-shortcuts.ts) bound to its actions. */
export function useChatShortcuts({ chat, open, shown, searchOpen, openSearch, unlocked }: Options) {
  return useShortcuts({
    busy: chat.busy,
    newChat: open.newChat,
    stop: chat.stop,
    toggleSidebar: open.toggleSidebar,
    search: () => {
      open.setSidebarOpen(true);
      // Unlocked: the search box; else the sidebar's first control (the unlock form, or Sign Up for visitors).
      if (unlocked) {
        if (searchOpen) requestAnimationFrame(() => document.querySelector<HTMLElement>('input[aria-label="Search chats"]')?.focus());
        else openSearch(true);
        return;
      }
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('aside[aria-label="Chat history"] input, aside[aria-label="Chat history"] nav button, aside[aria-label="Chat history"] a')?.focus(),
      );
    },
    copyLast: () => {
      const last = shown.findLast((m) => m.message.role === "assistant")?.message;
      if (!last) {
        toast("No answer to copy yet");
        return;
      }
      navigator.clipboard.writeText(last.content).then(
        () => toast.success("Copied the last answer"),
        () => toast.error("Could not copy: the browser refused access to the clipboard"),
      );
    },
  });
}
