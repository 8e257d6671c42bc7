"use client";

import { useEffect, useRef, useState } from "react";
import type { BranchTree } from "@/lib/browser/chat/branches";
import {
  forgetKeptConversation,
  isEmptyConversation,
  keptMessageCount,
  readKeptConversation,
  writeKeptConversation,
  type KeptConversation,
} from "@/lib/browser/chat/kept-conversation";
import type { ComposerText } from "./composer-text";
import type { UiMessage } from "./types";

interface Options {
  /** The account is still being looked up: nothing is read or written until it is known. */
  loading: boolean;
  signedIn: boolean;
  /** What the chat screen holds now (the conversation, its documents, the staged file, the model). */
  current: Omit<KeptConversation<UiMessage>, "input">;
  /** The composer's text, kept with them (listened to, so typing re-renders nothing here). */
  composer: ComposerText;
  /** Put a kept conversation back on screen. */
  restore: (kept: KeptConversation<UiMessage>) => void;
}

/** The kept conversation in this page's memory: survives moving between the app's pages (client-side navigation). */
let memory: KeptConversation<UiMessage> | null = null;

/**
 * Whether this tab's stored copy is brought back on a fresh page load: on Back/Forward and reload, when /chat
 * was reached inside the app after a full load of another page (the e-mail sign-in link opens /signup, which
 * goes on to /chat), and when /chat is opened by its address or a link in a tab that has been used before.
 * Only a tab's first page starts a new chat: its sessionStorage may be a copy of the tab that opened it.
 */
function arrivedWithinTheTab(): boolean {
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (!nav) return false;
  if (nav.type === "reload" || nav.type === "back_forward") return true;
  return new URL(nav.name).pathname !== window.location.pathname || window.history.length > 1;
}

/** A visitor's conversation waiting, after sign-in in the same tab, for "Keep it" or "Discard". */
export interface KeptOffer {
  messages: number;
  keep: () => KeptConversation<UiMessage>;
  discard: () => void;
}

/**
 * A visitor's conversation survives the spec's redirects to /pricing and /signup, Back, a reload and /chat
 * opened again by its address in the tab (docs/issues.md #56): in this page's memory and this tab's
 * sessionStorage (lib/browser/chat/kept-conversation.ts). A visitor gets it back silently; a
 * user who has just signed in in this tab is offered to keep it (`offer`), and it is forgotten either way.
 * Signed-in users' conversations are never written there.
 */
export function useKeptConversation({ loading, signedIn, current, composer, restore }: Options): KeptOffer | null {
  const [offer, setOffer] = useState<KeptConversation<UiMessage> | null>(null);
  // Read once, when the account is known; writing starts only after that, so nothing is overwritten first.
  const [ready, setReady] = useState(false);
  const restoreRef = useRef(restore);
  useEffect(() => {
    restoreRef.current = restore;
  }, [restore]);

  useEffect(() => {
    if (loading || ready) return;
    const kept = memory ?? (arrivedWithinTheTab() ? readKeptConversation<UiMessage>() : null);
    if (!kept) forgetKeptConversation();
    // Applied after this render (a callback, not a synchronous update inside the effect).
    queueMicrotask(() => {
      if (kept && !signedIn) restoreRef.current(kept);
      else if (kept && keptMessageCount(kept) > 0) setOffer(kept);
      else if (kept) {
        // Only unsent text or a PDF: put it back in the composer, there is no chat to keep.
        memory = null;
        forgetKeptConversation();
        restoreRef.current(kept);
      }
      setReady(true);
    });
  }, [loading, ready, signedIn]);

  const { tree, documents, staged, model } = current;
  useEffect(() => {
    if (!ready || loading || signedIn) return;
    const write = () => {
      const kept = { tree: tree as BranchTree<UiMessage>, documents, input: composer.get(), staged, model };
      memory = isEmptyConversation(kept) ? null : kept;
      writeKeptConversation<UiMessage>(kept);
    };
    write();
    return composer.subscribe(write);
  }, [ready, loading, signedIn, tree, documents, staged, model, composer]);

  if (!offer || !signedIn) return null;
  return {
    messages: keptMessageCount(offer),
    keep: () => {
      memory = null;
      forgetKeptConversation();
      setOffer(null);
      return offer;
    },
    discard: () => {
      memory = null;
      forgetKeptConversation();
      setOffer(null);
    },
  };
}
