"use client";

import { useCallback, useEffect, useRef } from "react";
import { loadDraft, NEW_CHAT_DRAFT, removeDraft, storeDraft } from "@/lib/browser/chat/drafts";
import type { ComposerText } from "./composer-text";
import type { VaultKey } from "@/lib/browser/vault/types";

/** How long typing must pause before the draft is sealed and stored, ms. */
const STORE_DELAY_MS = 300;

/** Drafts while the vault is locked: in this page's memory only, since nothing unsealed is written to the browser. */
const memoryDrafts = new Map<string, string>();

interface Options {
  signedIn: boolean;
  vaultKey: VaultKey | null;
  chatId: string | null;
  composer: ComposerText;
}

/** A signed-in user's per-chat draft, sealed with the vault key and kept in this browser. */
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
      // Marked first: the restored text is then kept like typed text.
      restored.current = tag;
      if (text) composer.set((current) => (current === "" ? text : current));
      // Text typed while the draft was being read: keep it now, not only at the next keystroke.
      else if (composer.get().trim() !== "") void storeDraft(owner.key, owner.userId, key, composer.get());
    }, () => {
      // Not restored: typing then does not replace the stored draft, which a later load can still read.
      console.error("Failed to read the draft");
    });
    return () => {
      live = false;
    };
  }, [signedIn, owner, key, composer]);

  // A subscription, not a dependency on the text, so typing re-renders nothing here.
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

  // Another chat is about to open: keep the composer's text as this chat's draft and empty the composer.
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
