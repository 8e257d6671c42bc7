import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { checkReadiness } from "@/lib/server/health";

/**
 * GET /api/ready: readiness for the load balancer (docs/deploy.md). 200 `{ status: "ready", checks }`
 * when the database answers with every migration applied, Redis answers (when REDIS_URL is set) and the
 * process is not shutting down; otherwise 503 `{ error, checks }`. Each probe is bounded (2 s); never
 * cached. The checks name components only, never connection details; a failed database check says why
 * in `error` ("Not ready: database (PANIC: could not locate a valid checkpoint record …)").
 */

export const GET = route(api.ready, async () => {
  const { ready, checks, databaseReason } = await checkReadiness();
  const headers = { "Cache-Control": "no-store" };
  if (ready) return reply(api.ready, { status: "ready", checks }, { headers });
  const failed = Object.entries(checks)
    .filter(([, v]) => v === "failed" || v === "draining")
    .map(([k]) => (k === "database" && databaseReason ? `database (${databaseReason})` : k));
  // Not an AppError: the 503 body carries `checks` beside `error` (contract notReadySchema).
  return Response.json({ error: `Not ready: ${failed.join(", ")}.`, checks }, { status: 503, headers });
});
