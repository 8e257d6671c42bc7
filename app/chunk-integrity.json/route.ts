import { chunkMapJson } from "@/lib/server/security/chunk-loader";

/** GET /chunk-integrity.json: the SHA-384 of every script of this build, for the inline loader (docs/verify.md). */
export const dynamic = "force-dynamic";

export function GET(): Response {
  const json = chunkMapJson();
  if (json === null) return Response.json({ error: "No build." }, { status: 404 });
  return new Response(json, { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache" } });
}
