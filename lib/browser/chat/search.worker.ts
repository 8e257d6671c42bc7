/// <reference lib="webworker" />
// The "Search chats" worker (logic in ./search-worker-core.ts): nothing decrypted leaves it but a query's results, and nothing is logged.
import { apiFetch, preloadContract } from "@/lib/browser/api/client";
import { SearchWorkerCore, type SearchRequest } from "./search-worker-core";

// The DOM lib types `self` as a Window; in a worker it is the worker's scope.
// eslint-disable-next-line no-restricted-syntax
const scope = self as unknown as DedicatedWorkerGlobalScope;
const core = new SearchWorkerCore((reply) => scope.postMessage({ hush: "search", reply }), apiFetch);
// The contract's and the hasher's chunks load now, not when the first sync needs them.
preloadContract();
void core.preload();

scope.addEventListener("message", (event: MessageEvent<{ hush?: string; msg: SearchRequest }>) => {
  if (event.data?.hush === "search") core.handle(event.data.msg);
});
