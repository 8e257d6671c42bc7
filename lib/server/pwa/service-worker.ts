/**
 * The service worker's source (/sw.js): caches only the static app shell (hashed /_next/static files, icons,
 * manifest), never a page, an RSC payload, /api or a worker's own script (its URL fragment would not survive), and
 * is versioned by build so activation deletes older caches. SRI still applies to what it serves.
 */

/** Cached at install (besides /_next/static files, cached as they are fetched). */
const SHELL_FILES = ["/manifest.webmanifest", "/icons/icon-192.png", "/icons/icon-512.png", "/icons/icon-maskable-512.png"] as const;

const shellCacheName = (version: string) => `hush-shell-${version}`;

export function serviceWorkerSource(version: string): string {
  return `// Hush service worker, build ${version}. Source: lib/server/pwa/service-worker.ts. Caches the static app shell only.
"use strict";
const CACHE = ${JSON.stringify(shellCacheName(version))};
const SHELL = ${JSON.stringify(SHELL_FILES)};

self.addEventListener("install", (event) => {
  // Pages and /api/* go straight to the network without waking this worker (Chromium's static routing,
  // where available): a keepalive request sent as the page is left (a deletion inside its undo window) was
  // dropped when it had to pass through the worker.
  if (event.addRoutes && typeof URLPattern === "function") {
    event.waitUntil(
      event.addRoutes([
        { condition: { urlPattern: new URLPattern({ pathname: "/api/*" }) }, source: "network" },
        { condition: { requestMode: "navigate" }, source: "network" },
      ]).catch(() => undefined),
    );
  }
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("hush-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

function isShell(url) {
  return url.pathname.startsWith("/_next/static/") || SHELL.includes(url.pathname);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  // A Web Worker's own script is left to the browser: a response from here would lose the URL's fragment,
  // which Turbopack's worker bootstrap reads (#params=: the chunks to load), and the worker would never start.
  if (request.destination === "worker" || request.destination === "sharedworker") return;
  const url = new URL(request.url);
  // Pages, RSC payloads and /api/* are never answered or stored here.
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/") || !isShell(url)) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const hit = await cache.match(request, { ignoreVary: true });
      if (hit) return hit;
      const response = await fetch(request);
      if (response.ok && response.type === "basic" && !response.headers.get("cache-control")?.includes("no-store")) {
        await cache.put(request, response.clone());
      }
      return response;
    }),
  );
});
`;
}
