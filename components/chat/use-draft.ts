"use client";

import { useCallback, useEffect, useRef } from "react";
import { loadDraft, NEW_CHAT_DRAFT, removeDraft, storeDraft } from "@/lib/browser/chat/drafts";
import type { ComposerText } from "./composer-text";
import type { VaultKey } from "./types";

/** How long typing must pause before the draft is sealed and stored, in ms. */
const STORE_DELAY_MS = 300;

/**
 * Without an unlocked vault a signed-in user's drafts live only in this page's memory (they survive moving
 * between pages of the app and a failed send, not a reload): nothing unsealed is written to the browser.
 */
const memoryDrafts = new Map<string, string>();

interface Options {
  /** Only signed-in users: a visitor's unsent text is kept with the conversation (lib/browser/chat/kept-conversation.ts). */
  signedIn: boolean;
  vaultKey: VaultKey | null;
  /** The open chat's id, or null for a new chat. */
  chatId: string | null;
  /** The composer's text: read and written here, listened to rather than rendered. */
  composer: ComposerText;
}

/**
 * A per-chat draft for signed-in users: what is typed in the composer is sealed with the vault
 * key and kept in this browser (lib/browser/chat/drafts.ts), so a reload, a failed send, a 429 or a lost connection
 * loses nothing; it comes back when the vault is unlocked and the chat is open. Switching chats swaps the
 * composer's text for the other chat's draft (`switchTo`); a new chat getting its id on its first save takes
 * its draft along.
 */
export function useDraft({ signedIn, vaultKey, chatId, composer }: Options) {
  const key = chatId ?? NEW_CHAT_DRAFT;
  const keyRef = useRef(key);
  const switching = useRef(false);
  // The (vault, chat) whose stored draft has been read: until then a blank composer must not erase it.
  const restored = useRef<string | null>(null);
  const owner = signedIn ? vaultKey : null;

  // The chat changed: after `switchTo` it is another chat; otherwise the new chat got its id on its first save.
  useEffect(() => {
    const previous = keyRef.current;
    keyRef.current = key;
    if (previous === key) return;
    if (switching.current) switching.current = false;
    else if (previous === NEW_CHAT_DRAFT) {
      memoryDrafts.delete(previous);
      if (owner) removeDraft(owner.userId, previous);
    }
  }, [key, owner]);

  // Read the stored draft of the open chat once the vault is unlocked (or the chat changed).
  useEffect(() => {
    if (!signedIn) return;
    const tag = `${owner?.userId ?? "-"}:${key}`;
    if (!owner) {
      const kept = memoryDrafts.get(key);
      restored.current = tag;
      if (kept) composer.set((current) => (current === "" ? kept : current));
      return;
    }
    let live = true;
    void loadDraft(owner.key, owner.userId, key).then((text) => {
      if (!live) return;
      // Marked first: the restored text is then kept like typed text (in memory, sealed again).
      restored.current = tag;
      if (text) composer.set((current) => (current === "" ? text : current));
      // Text typed while this chat's draft was being read (a new chat getting its id on its first save
      // takes what is in the composer along): keep it now, not only at the next keystroke.
      else if (composer.get().trim() !== "") void storeDraft(owner.key, owner.userId, key, composer.get());
    }, () => {
      // Not restored: typing then does not replace the stored draft, which a later load can still read.
      console.error("Failed to read the draft");
    });
    return () => {
      live = false;
    };
  }, [signedIn, owner, key, composer]);

  // Keep the draft as it is typed (sealed, after a short pause); a blank composer removes it. A
  // subscription, not a dependency on the text, so typing re-renders nothing here.
  useEffect(() => {
    if (!signedIn) return;
    const tag = `${owner?.userId ?? "-"}:${key}`;
    let timer: number | undefined;
    const keep = () => {
      if (restored.current !== tag) return;
      const input = composer.get();
      if (input.trim() === "") memoryDrafts.delete(key);
      else memoryDrafts.set(key, input);
      if (!owner) return;
      window.clearTimeout(timer);
      timer = window.setTimeout(() => void storeDraft(owner.key, owner.userId, key, input), STORE_DELAY_MS);
    };
    keep();
    const unsubscribe = composer.subscribe(keep);
    return () => {
      unsubscribe();
      window.clearTimeout(timer);
    };
  }, [signedIn, owner, key, composer]);

  /**
   * Another chat is about to open (`next`: its id, or null for a new chat): keep the composer's text as the
   * current chat's draft and empty the composer for the other chat's draft. No-op for the same chat.
   */
  const switchTo = useCallback(
    (next: string | null) => {
      const nextKey = next ?? NEW_CHAT_DRAFT;
      if (!signedIn || nextKey === keyRef.current) return;
      const text = composer.get();
      const current = keyRef.current;
      if (text.trim() === "") memoryDrafts.delete(current);
      else memoryDrafts.set(current, text);
      if (owner) void storeDraft(owner.key, owner.userId, current, text);
      switching.current = true;
      restored.current = null;
      composer.set("");
    },
    [signedIn, owner, composer],
  );

  return { switchTo };
}
