import { SHORTCUTS } from "./shortcut-table";

// Shortcut presses made before react-hotkeys-hook is bound (after the first paint) are held and replayed to it in
// order. Escape alone (stop) passes: nothing streams yet.
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

/** Start holding shortcut presses, unless the library is bound. Idempotent. */
export function holdEarlyShortcuts(): void {
  if (listening || bound || typeof window === "undefined") return;
  listening = true;
  window.addEventListener("keydown", hold, true);
}

/** Stop holding and forget what was held. */
export function dropEarlyShortcuts(): void {
  window.removeEventListener("keydown", hold, true);
  listening = false;
  held = [];
}

/** The library is bound: replay the held presses to it. Returns the unbinding. */
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
