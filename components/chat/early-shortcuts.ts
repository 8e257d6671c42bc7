import { SHORTCUTS } from "./use-shortcuts";

/**
 * The chat's shortcut presses made before react-hotkeys-hook is bound (./shortcut-keys.tsx loads after the
 * first paint): a plain keydown listener holds them from the chat's first render, and they are replayed,
 * in order, to the library once it binds. Only shortcuts with Cmd/Ctrl or Shift wait.
 */
interface Held {
  target: EventTarget | null;
  init: KeyboardEventInit;
}

let held: Held[] = [];
let listening = false;
let bound = false;

/** Cmd on macOS, Ctrl elsewhere: the test react-hotkeys-hook makes for `mod`. */
const isMac = () => /mac/i.test(navigator.userAgent) && !/iphone|ipad|ipod/i.test(navigator.userAgent);

// Read at the first press, not at import: ./use-shortcuts.ts imports this module.
const waiting = () => SHORTCUTS.map((s) => s.keys.split("+")).filter((parts) => parts.length > 1);

/** Whether `e` is one of the waiting shortcuts, by physical key (event.code) as the library matches them. */
function isShortcut(e: KeyboardEvent): boolean {
  const key = e.code.replace(/^Key/, "").toLowerCase();
  const mod = isMac() ? e.metaKey : e.ctrlKey;
  return waiting().some((parts) => parts.at(-1) === key && parts.includes("mod") === mod && parts.includes("shift") === e.shiftKey && !e.altKey);
}

function hold(e: KeyboardEvent): void {
  if (!isShortcut(e)) return;
  e.preventDefault();
  const { key, code, ctrlKey, metaKey, shiftKey, altKey } = e;
  held.push({ target: e.target, init: { key, code, ctrlKey, metaKey, shiftKey, altKey, bubbles: true, cancelable: true, composed: true } });
}

/** Start holding shortcut presses, unless the library is already bound. Idempotent; no-op on the server. */
export function holdEarlyShortcuts(): void {
  if (listening || bound || typeof window === "undefined") return;
  listening = true;
  window.addEventListener("keydown", hold, true);
}

/** Stop holding and forget what was held (the chat is gone before the library bound). */
export function dropEarlyShortcuts(): void {
  if (listening) window.removeEventListener("keydown", hold, true);
  listening = false;
  held = [];
}

/** The library is bound: stop holding and replay the held presses to it (keydown then keyup, as typed). */
export function releaseEarlyShortcuts(): void {
  bound = true;
  const presses = held;
  dropEarlyShortcuts();
  for (const { target, init } of presses) {
    const to = target instanceof Node && target.isConnected ? target : document;
    to.dispatchEvent(new KeyboardEvent("keydown", init));
    to.dispatchEvent(new KeyboardEvent("keyup", init));
  }
}

/** The library is unbound (the chat unmounted): the next chat holds presses again. */
export function unbindEarlyShortcuts(): void {
  bound = false;
}
