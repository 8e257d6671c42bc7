import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";

// GET /api/health: liveness only; a dead database must not make an orchestrator restart every instance.

export const GET = route(api.health, async () =>
  reply(api.health, { status: "ok" }, { headers: { "Cache-Control": "no-store" } }),
);
