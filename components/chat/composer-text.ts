"use client";

import { useSyncExternalStore } from "react";

/**
 * The composer's unsent text, kept outside React state so that a keystroke re-renders only the components
 * that read it with `useComposerText` (the composer), not everything under the chat's context.
 */
export interface ComposerText {
  /** The text as it is now. */
  get: () => string;
  /** Replace the text, or update it from the current one; listeners hear of a change only. */
  set: (update: string | ((current: string) => string)) => void;
  /** Call `listener` after each change; returns the unsubscribing. */
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

/** The composer's text, re-rendering the calling component whenever it changes. */
export function useComposerText(composer: ComposerText): string {
  return useSyncExternalStore(composer.subscribe, composer.get, composer.get);
}
