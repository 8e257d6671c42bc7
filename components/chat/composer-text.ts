"use client";

import { useSyncExternalStore } from "react";

/** The composer's text, outside React state so a keystroke re-renders only what reads it with `useComposerText`. */
export interface ComposerText {
  get: () => string;
  /** Listeners hear of a change only. */
  set: (update: string | ((current: string) => string)) => void;
  /** Returns the unsubscribing. */
  subscribe: (listener: () => void) => () => void;
}

/** A new, empty composer text (one per chat screen). */
export function createComposerText(): ComposerText {
  let text = "";
  const listeners = new Set<() => void>();
  return {
    get: () => text,
    set: (update) => {
      const next = typeof update === "function" ? update(text) : update;
      if (next === text) return;
      text = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** Re-renders the calling component whenever the text changes. */
export function useComposerText(composer: ComposerText): string {
  return useSyncExternalStore(composer.subscribe, composer.get, composer.get);
}
