// The Python worker's "no network at all". The page's CSP (lib/server/security/csp.ts) is the second wall.

export const NETWORK_APIS = [
  "fetch",
  "fetchLater",
  "XMLHttpRequest",
  "WebSocket",
  "WebSocketStream",
  "WebTransport",
  "EventSource",
  "importScripts",
  "Worker",
  "SharedWorker",
  "BroadcastChannel",
  "FontFace",
  "caches",
  "CacheStorage",
  "Notification",
  "indexedDB",
  "RTCPeerConnection",
] as const;

export const NO_NETWORK_MESSAGE = "No network: code on this device cannot reach any server.";

/**
 * Each API becomes a throwing function, non-configurable on every object of the prototype chain and on `scope`, so
 * code can neither restore nor shadow it. @returns the names replaced
 */
export function lockNetwork(scope: object, extra: readonly string[] = []): string[] {
  const refuse = function refused(): never {
    throw new TypeError(NO_NETWORK_MESSAGE);
  };
  const locked = new Set<string>();
  const lock = (o: object, name: string) => Object.defineProperty(o, name, { value: refuse, writable: false, configurable: false, enumerable: false });
  for (const name of [...NETWORK_APIS, ...extra]) {
    for (let o: object | null = scope; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
      if (!Object.getOwnPropertyDescriptor(o, name)) continue;
      lock(o, name);
      locked.add(name);
    }
    if (locked.has(name) && Object.getOwnPropertyDescriptor(scope, name)?.value !== refuse) lock(scope, name);
  }
  return [...locked];
}
