"use client";

import { useLayoutEffect } from "react";
import { useHotkeys } from "react-hotkeys-hook";
import { releaseEarlyShortcuts } from "./early-shortcuts";
import { focusChatInput, type Shortcuts } from "./use-shortcuts";

/** While a modal dialog is open, page shortcuts wait. */
const dialogOpen = () => document.querySelector("dialog[open]") !== null;

/** Binds the chat's keyboard shortcuts on the document; renders nothing. */
export function ShortcutKeys({ shortcuts }: { shortcuts: Shortcuts }) {
  const { handlers, setHelpOpen } = shortcuts;
  // `ignoreEventWhen` (not `enabled`): an ignored key keeps its default action, e.g. Escape closing a dialog.
  const options = { enableOnFormTags: true, preventDefault: true } as const;
  const unlessDialog = { ...options, ignoreEventWhen: dialogOpen };

  useHotkeys("mod+shift+o", () => handlers.newChat(), unlessDialog, [handlers]);
  useHotkeys("shift+escape", () => focusChatInput(), unlessDialog, [handlers]);
  useHotkeys("escape", () => handlers.stop(), { ...options, ignoreEventWhen: () => !handlers.busy || dialogOpen() }, [handlers]);
  useHotkeys("mod+shift+s", () => handlers.toggleSidebar(), unlessDialog, [handlers]);
  useHotkeys("mod+k", () => handlers.search(), unlessDialog, [handlers]);
  useHotkeys("mod+shift+c", () => handlers.copyLast(), unlessDialog, [handlers]);
  useHotkeys("mod+slash", () => setHelpOpen(true), options, [setHelpOpen]);
  // In the same commit as the hooks above bind (theirs are layout effects too): no press is both held and handled.
  useLayoutEffect(releaseEarlyShortcuts, []);
  return null;
}
