"use client";

import { useState } from "react";
import { useChatToggle } from "./use-chat-toggle";
import { isConfidentialCode } from "@/lib/shared/confidential/protocol";
import type { WebSearchRecord } from "@/lib/shared/search/record";
import { useConfidential } from "@/components/confidential/confidential-context";
import { useWebSearchConfig } from "./web-search-context";

const utcDay = () => new Date().toISOString().slice(0, 10);

/** The toggle's state for the open chat. */
export interface WebSearchState {
  /** The toggle is offered for this model: a standard model with SEARXNG_URL set, or a confidential one. */
  available: boolean;
  /** On for this chat (and not over today's searches). */
  on: boolean;
  /** Today's searches are used up: the toggle says so and stays off until the next UTC day. */
  overQuota: boolean;
  /** Who runs the searches, as the toggle names it. */
  engine: string;
  /** Who reads a page for the model (docs/issues.md #51): Hush's server for a standard model, else the enclave. */
  reader: string;
  toggle: () => void;
}

/**
 * "Search the web" per chat: off by default, remembered per chat for this page's life (./use-chat-toggle.ts); a
 * new chat's choice follows it once it is saved (`adopt`), and New chat starts with it off (`reset`). An answer whose search was
 * refused for the day's limit (`record`) turns it off with an explanation until the next UTC day.
 */
export function useWebSearch(chatId: string | null, model: string) {
  const { standardEngine } = useWebSearchConfig();
  const confidential = useConfidential().config;
  const chosen = useChatToggle(chatId);
  const [overQuotaDay, setOverQuotaDay] = useState<string | null>(null);
  const inEnclave = isConfidentialCode(confidential, model);
  const available = inEnclave || standardEngine !== null;
  const overQuota = overQuotaDay === utcDay();
  const state: WebSearchState = {
    available,
    on: available && !overQuota && chosen.on,
    overQuota,
    engine: inEnclave ? `the secure enclave (${confidential!.enclaveHost})` : (standardEngine ?? ""),
    reader: inEnclave ? "the secure enclave" : "Hush's server",
    toggle: chosen.toggle,
  };
  return {
    state,
    /** A new chat was saved as `id`: it keeps the choice made while it had none. */
    adopt: chosen.adopt,
    /** New chat: the toggle starts off. */
    reset: chosen.reset,
    /** An answer's search came back: past the day's limit the toggle explains it. */
    record: (search: WebSearchRecord | undefined) => {
      if (search?.status === "over_quota") setOverQuotaDay(utcDay());
    },
  };
}
