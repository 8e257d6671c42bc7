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
  /** A standard model with SEARXNG_URL set, or a confidential one. */
  available: boolean;
  on: boolean;
  /** Today's searches are used up: off until the next UTC day. */
  overQuota: boolean;
  engine: string;
  /** Who reads a page for the model (docs/issues.md #51). */
  reader: string;
  toggle: () => void;
}

/** "Search the web" per chat, off by default; over the day's limit it turns off until the next UTC day. */
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
    adopt: chosen.adopt,
    reset: chosen.reset,
    record: (search: WebSearchRecord | undefined) => {
      if (search?.status === "over_quota") setOverQuotaDay(utcDay());
    },
  };
}
