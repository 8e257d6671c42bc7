"use client";

import { createContext, useContext, type ReactNode } from "react";

/** What a page tells the composer about dictation for standard models (docs/issues.md #52); null provider: off. */
export interface DictationConfig {
  standardProvider: string | null;
  maxSeconds: number;
  timeoutMs: number;
}

const DictationContext = createContext<DictationConfig>({ standardProvider: null, maxSeconds: 120, timeoutMs: 60_000 });

/** Provides the page's dictation settings to the composer. */
export function DictationProvider({ value, children }: { value: DictationConfig; children: ReactNode }) {
  return <DictationContext.Provider value={value}>{children}</DictationContext.Provider>;
}

/** Off for standard models outside a provider. */
export function useDictationConfig(): DictationConfig {
  return useContext(DictationContext);
}
