"use client";

import { useEffect, useRef, useState } from "react";
import type { BranchTree } from "@/lib/chat/branches";
import {
  forgetKeptConversation,
  keptMessageCount,
  readKeptConversation,
  writeKeptConversation,
  type KeptConversation,
} from "@/lib/chat/kept-conversation";
import type { UiMessage } from "./types";

interface Options {
  /** The account is still being looked up: nothing is read or written until it is known. */
  loading: boolean;
  signedIn: boolean;
  /** What the chat screen holds now (the conversation, its documents, the composer, the model). */
  current: KeptConversation<UiMessage>;
  /** Put a kept conversation back on screen. */
  restore: (kept: KeptConversation<UiMessage>) => void;
}

/** A visitor's conversation waiting, after sign-in in the same tab, for "Keep it" or "Discard". */
export interface KeptOffer {
  messages: number;
  keep: () => KeptConversation<UiMessage>;
  discard: () => void;
}

/**
 * docs/issues.md #23: a visitor's conversation survives the spec's redirects to /pricing and /signup (and a
 * reload) in this tab's sessionStorage (lib/chat/kept-conversation.ts). A visitor gets it back silently; a
 * user who has just signed in in this tab is offered to keep it (`offer`), and it is forgotten either way.
 * Signed-in users' conversations are never written there.
 */
export function useKeptConversation({ loading, signedIn, current, restore }: Options): KeptOffer | null {
  const [offer, setOffer] = useState<KeptConversation<UiMessage> | null>(null);
  // Read once, when the account is known; writing starts only after that, so nothing is overwritten first.
  const [ready, setReady] = useState(false);
  const restoreRef = useRef(restore);
  useEffect(() => {
    restoreRef.current = restore;
  }, [restore]);

  useEffect(() => {
    if (loading || ready) return;
    const kept = readKeptConversation<UiMessage>();
    // Applied after this render (a callback, not a synchronous update inside the effect).
    queueMicrotask(() => {
      if (kept && !signedIn) restoreRef.current(kept);
      else if (kept && keptMessageCount(kept) > 0) setOffer(kept);
      else if (kept) {
        // Only unsent text or a PDF: put it back in the composer, there is no chat to keep.
        forgetKeptConversation();
        restoreRef.current(kept);
      }
      setReady(true);
    });
  }, [loading, ready, signedIn]);

  const { tree, documents, input, staged, model } = current;
  useEffect(() => {
    if (!ready || loading || signedIn) return;
    writeKeptConversation<UiMessage>({ tree: tree as BranchTree<UiMessage>, documents, input, staged, model });
  }, [ready, loading, signedIn, tree, documents, input, staged, model]);

  if (!offer || !signedIn) return null;
  return {
    messages: keptMessageCount(offer),
    keep: () => {
      forgetKeptConversation();
      setOffer(null);
      return offer;
    },
    discard: () => {
      forgetKeptConversation();
      setOffer(null);
    },
  };
}
