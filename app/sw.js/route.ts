import { sourceCommit } from "@/lib/server/build/source-commit";
import { serviceWorkerSource } from "@/lib/server/pwa/service-worker";

/**
 * GET /sw.js: the service worker, written at build time with the build's
 * version (the commit, which is also Next's build id; a build time when the commit is unknown), so every
 * deployment serves a new worker and the old one's caches are deleted. `no-cache`: the browser asks
 * again at each update check. Not under /api: it is a static file of the build, not an API operation.
 */
export const dynamic = "force-static";

const commit = sourceCommit();
const version = commit === "unknown" ? `unknown-${Date.now()}` : commit;

export function GET(): Response {
  return new Response(serviceWorkerSource(version), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
