"use client";

import { createContext, useContext, type ReactNode } from "react";

/**
 * What a page tells the chat about web search: the host of the server's SearXNG for standard
 * models (SEARXNG_URL), or null when it has none (the toggle is then absent for standard models). Confidential
 * models search inside the enclave and need nothing from here.
 */
export interface WebSearchConfig {
  standardEngine: string | null;
}

const WebSearchContext = createContext<WebSearchConfig>({ standardEngine: null });

/** Provide the page's web-search settings to the chat (./use-web-search.ts). */
export function WebSearchProvider({ value, children }: { value: WebSearchConfig; children: ReactNode }) {
  return <WebSearchContext.Provider value={value}>{children}</WebSearchContext.Provider>;
}

/** The page's web-search settings ({ standardEngine: null } outside a provider). */
export function useWebSearchConfig(): WebSearchConfig {
  return useContext(WebSearchContext);
}
