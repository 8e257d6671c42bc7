/**
 * Next's own floor for a chat proxy (bench/perf/run.ts, "Next's floor" rows). POST does what
 * bench/perf/bare-proxy.mjs does and nothing more: read the JSON body, POST model and messages to
 * FLOOR_LLM_BASE_URL with `stream: true`, and pass the SSE body through as it comes. GET answers
 * `{"ok":true}`: the floor of a JSON GET route. No validation, session, quota or storage: this app is
 * started only by the benchmark, on loopback, and is no part of the product.
 */
export const dynamic = "force-dynamic";

export async function POST(request) {
  const base = process.env.FLOOR_LLM_BASE_URL;
  if (!base) return Response.json({ error: "FLOOR_LLM_BASE_URL is not set." }, { status: 500 });
  const body = await request.json();
  const upstream = await fetch(`${base.replace(/\/$/, "")}/chat/completions`, {
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

export function GET() {
  return Response.json({ ok: true }, { headers: { "Cache-Control": "private, no-store" } });
}
