import { sourceCommit } from "@/lib/server/build/source-commit";
import { serviceWorkerSource } from "@/lib/server/pwa/service-worker";

/** GET /sw.js, with the build's version, so every deployment serves a new worker and the old caches go. */
export const dynamic = "force-static";

const commit = sourceCommit();
const version = commit === "unknown" ? `unknown-${Date.now()}` : commit;

export function GET(): Response {
  return new Response(serviceWorkerSource(version), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
