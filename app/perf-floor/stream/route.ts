import { getConfig } from "@/lib/config";

/**
 * POST /perf-floor/stream: Next's own floor for a chat proxy (issue 12, bench/perf/run.ts). It does
 * what bench/perf/bare-proxy.mjs does and nothing more: read the JSON body, POST model and messages to
 * LLM_BASE_URL with `stream: true` (undici's keep-alive agent), and pass the SSE body through as it
 * comes. No validation, session, quota or storage, so it answers 404 unless PERF_FLOOR_ROUTE=1
 * (benchmark instances only); not an API of the product and not in the OpenAPI description.
 */
export async function POST(request: Request): Promise<Response> {
  const config = getConfig();
  if (config.PERF_FLOOR_ROUTE !== "1" || !config.LLM_BASE_URL) return Response.json({ error: "Not found." }, { status: 404 });
  const body = (await request.json()) as { model?: unknown; messages?: unknown };
  const upstream = await fetch(`${config.LLM_BASE_URL.replace(/\/$/, "")}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: body.model, messages: body.messages, stream: true }),
    cache: "no-store",
  });
  return new Response(upstream.body, {
    status: upstream.status,
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** GET /perf-floor/stream: Next's floor for a JSON GET route (bench/perf's history rows); 404 unless PERF_FLOOR_ROUTE=1. */
export function GET(): Response {
  if (getConfig().PERF_FLOOR_ROUTE !== "1") return Response.json({ error: "Not found." }, { status: 404 });
  return Response.json({ ok: true }, { headers: { "Cache-Control": "private, no-store" } });
}
