"use client";

import { createContext, useContext, type ReactNode } from "react";

/**
 * What a page tells the composer about dictation (docs/issues.md #52): who transcribes standard models' audio
 * (STT_PROVIDER_NAME or its default; null: dictation is off for them), the longest recording (STT_MAX_SECONDS) and how
 * long the browser waits for a transcript. Confidential models' audio goes to the enclave and needs nothing from here.
 */
export interface DictationConfig {
  standardProvider: string | null;
  maxSeconds: number;
  timeoutMs: number;
}

const DictationContext = createContext<DictationConfig>({ standardProvider: null, maxSeconds: 120, timeoutMs: 60_000 });

/** Provide the page's dictation settings to the composer (./dictate-button.tsx). */
export function DictationProvider({ value, children }: { value: DictationConfig; children: ReactNode }) {
  return <DictationContext.Provider value={value}>{children}</DictationContext.Provider>;
}

/** The page's dictation settings (off for standard models outside a provider). */
export function useDictationConfig(): DictationConfig {
  return useContext(DictationContext);
}
