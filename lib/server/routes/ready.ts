import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { checkReadiness } from "@/lib/server/health";

// GET /api/ready (docs/deploy.md): 200 when the database, Redis (with REDIS_URL) and the process are ready, else 503.

export const GET = route(api.ready, async () => {
  const { ready, checks, databaseReason } = await checkReadiness();
  const headers = { "Cache-Control": "no-store" };
  if (ready) return reply(api.ready, { status: "ready", checks }, { headers });
  const failed = Object.entries(checks)
    .filter(([, v]) => v === "failed" || v === "draining")
    .map(([k]) => (k === "database" && databaseReason ? `database (${databaseReason})` : k));
  // Not an AppError: the 503 body carries `checks` beside `error`.
  return Response.json({ error: `Not ready: ${failed.join(", ")}.`, checks }, { status: 503, headers });
});
