"use client";

import { createContext, useContext, type ReactNode } from "react";

/** The host of the server's SearXNG for standard models, or null (no toggle for them). */
export interface WebSearchConfig {
  standardEngine: string | null;
}

const WebSearchContext = createContext<WebSearchConfig>({ standardEngine: null });

/** Provides the page's web-search settings to the chat. */
export function WebSearchProvider({ value, children }: { value: WebSearchConfig; children: ReactNode }) {
  return <WebSearchContext.Provider value={value}>{children}</WebSearchContext.Provider>;
}

/** `{ standardEngine: null }` outside a provider. */
export function useWebSearchConfig(): WebSearchConfig {
  return useContext(WebSearchContext);
}
