import "server-only";
import { api } from "@/lib/shared/api/contract";
import { route } from "@/lib/server/api/route";
import { openApiJson } from "@/lib/server/openapi/document";

// GET /api/openapi.json: generated from the contract; public and cacheable, with an ETag for 304s.

export const GET = route(api.openApiDocument, async ({ request }) => {
  const { json, etag } = openApiJson();
  const headers = { "Cache-Control": "public, max-age=300", ETag: etag, Vary: "Accept-Encoding" };
  if (request.headers.get("if-none-match")?.split(",").some((tag) => tag.trim() === etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(json, { headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
});
