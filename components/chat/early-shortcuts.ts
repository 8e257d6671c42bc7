import { SHORTCUTS } from "./shortcut-table";

/**
 * The chat's shortcut presses made before react-hotkeys-hook is bound (./shortcut-keys.tsx loads after the
 * first paint): a plain keydown listener holds them from the chat's first render, and they are replayed,
 * in order, to the library once it binds. Escape alone (stop) passes: nothing streams yet.
 */
let held: [EventTarget | null, KeyboardEvent][] = [];
let listening = false;
let bound = false;

function hold(e: KeyboardEvent): void {
  // `mod` and physical keys (event.code) as react-hotkeys-hook reads them: Cmd on macOS, Ctrl elsewhere.
  const mod = /mac/i.test(navigator.userAgent) && !/iphone|ipad|ipod/i.test(navigator.userAgent) ? e.metaKey : e.ctrlKey;
  const pressed = `${mod ? "mod+" : ""}${e.shiftKey ? "shift+" : ""}${e.code.replace(/^Key/, "").toLowerCase()}`;
  if (e.altKey || pressed === "escape" || !SHORTCUTS.some((s) => s.keys === pressed)) return;
  e.preventDefault();
  held.push([e.target, e]);
}

/** Start holding shortcut presses, unless the library is bound. Idempotent; nothing on the server. */
export function holdEarlyShortcuts(): void {
  if (listening || bound || typeof window === "undefined") return;
  listening = true;
  window.addEventListener("keydown", hold, true);
}

/** Stop holding and forget what was held (the chat is gone before the library bound). */
export function dropEarlyShortcuts(): void {
  window.removeEventListener("keydown", hold, true);
  listening = false;
  held = [];
}

/**
 * The library is bound: stop holding and replay the held presses to it (keydown then keyup, as typed).
 * Returns the unbinding, after which the next chat holds presses again.
 */
export function releaseEarlyShortcuts(): () => void {
  bound = true;
  const presses = held;
  dropEarlyShortcuts();
  for (const [target, e] of presses) {
    const to = target instanceof Node && target.isConnected ? target : document;
    for (const type of ["keydown", "keyup"]) to.dispatchEvent(new KeyboardEvent(type, e));
  }
  return () => {
    bound = false;
  };
}
