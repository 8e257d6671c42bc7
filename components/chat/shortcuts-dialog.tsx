"use client";

import { useSyncExternalStore } from "react";
import { buttonStyles, Dialog } from "@/components/ui/dialog";
import { SHORTCUTS } from "./shortcut-table";

const noop = () => () => {};
const isApple = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** How a key combination is written on this platform: ⌘ ⇧ O on a Mac, Ctrl Shift O elsewhere. */
function keyLabels(keys: string, apple: boolean): string[] {
  return keys.split("+").map((k) => {
    if (k === "mod") return apple ? "⌘" : "Ctrl";
    if (k === "shift") return apple ? "⇧" : "Shift";
    if (k === "escape") return "Esc";
    if (k === "slash") return "/";
    return k.toUpperCase();
  });
}

/** The list of keyboard shortcuts (Cmd/Ctrl+/), docs/issues.md #9. */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const apple = useSyncExternalStore(noop, isApple, () => false);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Keyboard shortcuts"
      actions={
        <button type="button" className={buttonStyles.secondary} onClick={onClose}>
          Close
        </button>
      }
    >
      <dl className="divide-y divide-ink-100" data-testid="shortcuts-list">
        {SHORTCUTS.map((s) => (
          <div key={s.id} className="flex items-center justify-between gap-4 py-2">
            <dt className="text-ink-800">{s.label}</dt>
            <dd className="flex shrink-0 gap-1">
              {keyLabels(s.keys, apple).map((k) => (
                <kbd key={k} className="min-w-7 rounded-md border border-ink-200 bg-ink-50 px-1.5 py-0.5 text-center font-sans text-xs font-semibold text-ink-800">
                  {k}
                </kbd>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
