/// <reference lib="webworker" />
/**
 * The "Search chats" worker: reads, checks, decrypts and indexes the saved chats, and answers
 * queries, off the page's main thread (lib/browser/chat/search-worker-core.ts has the logic and the protocol). Started
 * by components/chat/use-chat-search.ts once the page is idle after the vault unlocks, or when search opens
 * first: its chunks (MiniSearch, the contract, the hasher) are fetched then, never with a page. The vault
 * key and the integrity key arrive as non-extractable CryptoKeys (structured clones); nothing decrypted
 * leaves it but the results of a query. Nothing is logged.
 */
import { apiFetch, preloadContract } from "@/lib/browser/api/client";
import { SearchWorkerCore, type SearchRequest } from "./search-worker-core";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const core = new SearchWorkerCore((reply) => scope.postMessage({ hush: "search", reply }), apiFetch);
// The worker starts before search is first opened (when the page is idle): the contract's and the hasher's
// chunks load now, not when the first sync needs them (about 0.15 s of importScripts in a trace).
preloadContract();
void core.preload();

scope.addEventListener("message", (event: MessageEvent<{ hush?: string; msg: SearchRequest }>) => {
  if (event.data?.hush === "search") core.handle(event.data.msg);
});
