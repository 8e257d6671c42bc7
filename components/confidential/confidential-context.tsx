"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { ConfidentialPublicConfig, ModelPrivacy } from "@/lib/shared/confidential/protocol";

/**
 * The confidential settings a page hands the browser (lib/server/llm/confidential-models.ts `confidentialPublicConfig`,
 * `modelPrivacyLines`): which models are encrypted to the enclave, how to verify it, and one plain sentence per
 * model on who processes its messages. Nothing secret.
 */
export interface ConfidentialContextValue {
  /** Null when confidential inference is off: every model takes the standard path. */
  config: ConfidentialPublicConfig | null;
  privacy: ModelPrivacy[];
}

const ConfidentialContext = createContext<ConfidentialContextValue>({ config: null, privacy: [] });

/** Provide the page's confidential settings to the chat (use-conversation, the model badge). */
export function ConfidentialProvider({ value, children }: { value: ConfidentialContextValue; children: ReactNode }) {
  return <ConfidentialContext.Provider value={value}>{children}</ConfidentialContext.Provider>;
}

/** The confidential settings of this page ({ config: null, privacy: [] } outside a provider). */
export function useConfidential(): ConfidentialContextValue {
  return useContext(ConfidentialContext);
}
