"use client";

import { useEffect, useState } from "react";
import { dropEarlyShortcuts, holdEarlyShortcuts } from "./early-shortcuts";


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
