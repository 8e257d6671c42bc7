/**
 * The Python worker's "no network at all" (docs/issues.md #51 "Sandbox"): every way a worker can reach a server or
 * another context is replaced, on the scope and on each prototype it inherits from, by a function that throws, and
 * made non-configurable so code cannot put the original back. The page's CSP (lib/server/security/csp.ts) is the
 * second wall: connect-src 'self' and no 'unsafe-eval', so no string becomes JavaScript (js.eval, Function).
 */

/** What is taken away: fetch and the other request APIs, script and worker loading, and cross-context channels. */
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

/** The error every taken API throws. */
export const NO_NETWORK_MESSAGE = "No network: code on this device cannot reach any server.";

/**
 * Take NETWORK_APIS (and `extra`) away from `scope` and its prototype chain (Object.prototype excepted): each
 * becomes a function that throws TypeError(NO_NETWORK_MESSAGE), not writable, not configurable, on every object of
 * the chain that had it and on `scope` itself, so it cannot be shadowed either.
 * @returns the names that were found and replaced
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
