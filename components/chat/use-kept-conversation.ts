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
  /** Nothing is read or written until the account is known. */
  loading: boolean;
  signedIn: boolean;
  current: Omit<KeptConversation<UiMessage>, "input">;
  composer: ComposerText;
  restore: (kept: KeptConversation<UiMessage>) => void;
}

/** Survives client-side navigation between the app's pages. */
let memory: KeptConversation<UiMessage> | null = null;

/**
 * Whether this tab's stored copy is brought back on a fresh page load. Only a tab's first page starts a new
 * chat: its sessionStorage may be a copy of the tab that opened it.
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
 * A visitor's conversation kept through /pricing, /signup and reloads in this tab (docs/issues.md #56); after
 * sign-in it is offered. Signed-in users' conversations are never written there.
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
    queueMicrotask(() => {
      if (kept && !signedIn) restoreRef.current(kept);
      else if (kept && keptMessageCount(kept) > 0) setOffer(kept);
      else if (kept) {
        // Only unsent text or a PDF: no chat to keep.
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
