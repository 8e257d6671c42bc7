"use client";

import { useEffect, useState } from "react";
import { dropEarlyShortcuts, holdEarlyShortcuts } from "./early-shortcuts";

/**
 * The chat's keyboard shortcuts, with ChatGPT's keys so habits carry over. `mod` is Cmd on
 * macOS and Ctrl elsewhere; keys are matched by physical key (event.code), so they work on any layout
 * the way ChatGPT's do, and also while typing in the message input.
 */
export const SHORTCUTS = [
  { id: "newChat", keys: "mod+shift+o", label: "New chat" },
  { id: "focusInput", keys: "shift+escape", label: "Focus the message input" },
  { id: "stop", keys: "escape", label: "Stop generating (while an answer streams)" },
  { id: "toggleSidebar", keys: "mod+shift+s", label: "Show or hide the chat history" },
  { id: "search", keys: "mod+k", label: "Search chats" },
  { id: "copyLast", keys: "mod+shift+c", label: "Copy the last answer" },
  { id: "help", keys: "mod+slash", label: "Show keyboard shortcuts" },
] as const;

export interface ShortcutHandlers {
  newChat: () => void;
  /** Stop the streaming answer; only called while `busy`. */
  stop: () => void;
  toggleSidebar: () => void;
  /**
   * Search chats (docs/issues.md #9 History): the chat app opens the history with its search box focused (the
   * unlock form while the history is locked).
   */
  search: () => void;
  /** Copy the last assistant answer (a toast says whether it worked). */
  copyLast: () => void;
  busy: boolean;
}

/** The message input of components/chat/composer.tsx. */
export function focusChatInput(): void {
  const input = document.getElementById("chat-input");
  if (input instanceof HTMLTextAreaElement) {
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }
}

/** The shortcuts' state: the shortcuts dialog (Cmd/Ctrl+/), and what ./shortcut-keys.tsx binds to the keys. */
export interface Shortcuts {
  helpOpen: boolean;
  setHelpOpen: (open: boolean) => void;
  handlers: ShortcutHandlers;
}

/**
 * The shortcuts' state for `handlers`. The keys themselves are bound by <ShortcutKeys> (./shortcut-keys.tsx),
 * which the chat loads after its first paint with react-hotkeys-hook (docs/issues.md #42: /chat's first load).
 */
export function useShortcuts(handlers: ShortcutHandlers): Shortcuts {
  const [helpOpen, setHelpOpen] = useState(false);
  // At the first render, not in an effect: a press during hydration waits for the library (./early-shortcuts.ts).
  holdEarlyShortcuts();
  useEffect(() => dropEarlyShortcuts, []);
  return { helpOpen, setHelpOpen, handlers };
}
