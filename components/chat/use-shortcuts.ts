"use client";

import { useEffect, useState } from "react";
import { dropEarlyShortcuts, holdEarlyShortcuts } from "./early-shortcuts";


export interface ShortcutHandlers {
  newChat: () => void;
  /** Only called while `busy`. */
  stop: () => void;
  toggleSidebar: () => void;
  search: () => void;
  copyLast: () => void;
  busy: boolean;
}

/** Focus the composer's input, caret at the end. */
export function focusChatInput(): void {
  const input = document.getElementById("chat-input");
  if (input instanceof HTMLTextAreaElement) {
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }
}

/** The shortcuts dialog's state and what ./shortcut-keys.tsx binds to the keys. */
export interface Shortcuts {
  helpOpen: boolean;
  setHelpOpen: (open: boolean) => void;
  handlers: ShortcutHandlers;
}

/** The keys themselves are bound by ./shortcut-keys.tsx, loaded after the first paint (docs/issues.md #42). */
export function useShortcuts(handlers: ShortcutHandlers): Shortcuts {
  const [helpOpen, setHelpOpen] = useState(false);
  // At the first render, not in an effect: a press during hydration waits for the library (./early-shortcuts.ts).
  holdEarlyShortcuts();
  useEffect(() => dropEarlyShortcuts, []);
  return { helpOpen, setHelpOpen, handlers };
}
