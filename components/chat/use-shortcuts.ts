"use client";

import { useState } from "react";
import { useHotkeys } from "react-hotkeys-hook";

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

/** Whether a modal dialog (a confirmation, the shortcuts list) is open: page shortcuts wait. */
const dialogOpen = () => document.querySelector("dialog[open]") !== null;

/**
 * Registers the shortcuts on the document. @returns the state of the shortcuts dialog (Cmd/Ctrl+/).
 */
export function useShortcuts(handlers: ShortcutHandlers): { helpOpen: boolean; setHelpOpen: (open: boolean) => void } {
  const [helpOpen, setHelpOpen] = useState(false);
  // `ignoreEventWhen` (not `enabled`): an ignored key keeps its default action, e.g. Escape closing a dialog.
  const options = { enableOnFormTags: true, preventDefault: true } as const;
  const unlessDialog = { ...options, ignoreEventWhen: dialogOpen };

  useHotkeys("mod+shift+o", () => handlers.newChat(), unlessDialog, [handlers]);
  useHotkeys("shift+escape", () => focusChatInput(), unlessDialog, [handlers]);
  useHotkeys("escape", () => handlers.stop(), { ...options, ignoreEventWhen: () => !handlers.busy || dialogOpen() }, [handlers]);
  useHotkeys("mod+shift+s", () => handlers.toggleSidebar(), unlessDialog, [handlers]);
  useHotkeys("mod+k", () => handlers.search(), unlessDialog, [handlers]);
  useHotkeys("mod+shift+c", () => handlers.copyLast(), unlessDialog, [handlers]);
  useHotkeys("mod+slash", () => setHelpOpen(true), options, []);

  return { helpOpen, setHelpOpen };
}
