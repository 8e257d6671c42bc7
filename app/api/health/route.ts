/**
 * GET /api/health: liveness. The process answers; nothing else is checked (a dead database must not
 * make an orchestrator restart every instance). Never cached.
 */
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
