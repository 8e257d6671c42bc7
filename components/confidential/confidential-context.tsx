"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { ConfidentialPublicConfig, ModelPrivacy } from "@/lib/shared/confidential/protocol";

/** The confidential settings a page hands the browser (nothing secret). */
export interface ConfidentialContextValue {
  /** Null when confidential inference is off: every model takes the standard path. */
  config: ConfidentialPublicConfig | null;
  privacy: ModelPrivacy[];
}

const ConfidentialContext = createContext<ConfidentialContextValue>({ config: null, privacy: [] });

/** Provides the page's confidential settings to the chat. */
export function ConfidentialProvider({ value, children }: { value: ConfidentialContextValue; children: ReactNode }) {
  return <ConfidentialContext.Provider value={value}>{children}</ConfidentialContext.Provider>;
}

/** `{ config: null, privacy: [] }` outside a provider. */
export function useConfidential(): ConfidentialContextValue {
  return useContext(ConfidentialContext);
}
