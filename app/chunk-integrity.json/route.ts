import { chunkMapJson } from "@/lib/server/security/chunk-loader";

/**
 * GET /chunk-integrity.json: the SHA-384 of every script of this build, which the page's inline loader
 * fetches with its own integrity and applies to each chunk Next's runtime loads later (docs/verify.md).
 * Not under /api: a file of the build, not an API operation.
 */
export const dynamic = "force-dynamic";

export function GET(): Response {
  const json = chunkMapJson();
  if (json === null) return Response.json({ error: "No build." }, { status: 404 });
  return new Response(json, { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache" } });
}
