/**
 * The service worker's source, served at /sw.js by app/sw.js/route.ts with
 * the build's version in it. What it caches, and why no more:
 * - only the static app shell: the build's hashed, immutable files under /_next/static (scripts,
 *   styles, fonts), the icons and the web app manifest, cache-first;
 * - pages and /api/* do not even pass through it where the browser supports static routing (keepalive
 *   requests sent while a page is left were dropped when they did);
 * - never a Web Worker's own script (its URL's fragment, which Turbopack's worker bootstrap reads, does not
 *   survive a response from a service worker; the PDF and Word readers never started);
 * - never a page, an RSC payload or anything under /api: pages carry a per-request CSP nonce and the
 *   signed-in user's state, and answers carry chats; those requests are not even answered by the
 *   worker (no respondWith), so the browser fetches them as if there were no worker;
 * - Subresource Integrity still applies: a script the worker answers from its cache is checked against
 *   the page's integrity attribute like any other (docs/verify.md);
 * - versioned by build: a new deployment serves a different /sw.js (its version is the build's commit,
 *   Next's build id), the browser installs it at the next navigation (`updateViaCache: "none"`, served
 *   `no-cache`), and activation deletes every older cache. No stale code outlives a deployment's next visit.
 */

/** Files cached when the worker installs (besides /_next/static files, cached as they are fetched). */
export const SHELL_FILES = ["/manifest.webmanifest", "/icons/icon-192.png", "/icons/icon-512.png", "/icons/icon-maskable-512.png"] as const;

/** The name of the cache of build `version`. */
export const shellCacheName = (version: string) => `hush-shell-${version}`;

/** The worker's JavaScript for build `version` (a commit hash, or another build-unique string). */
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
