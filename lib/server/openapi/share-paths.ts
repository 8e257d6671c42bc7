import { z } from "@/lib/shared/zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { api } from "@/lib/shared/api/contract";
import { MAX_SHARES_PER_USER, SHARE_MAX_CIPHERTEXT_BYTES } from "@/lib/shared/share/schemas";
import { ANYONE, errors, jsonBody, ok, SIGNED_IN } from "./helpers";

/**
 * The share-link endpoints for the OpenAPI document; schemas and body
 * limits from the API contract. The server stores and returns ciphertext only: the key is in the link's
 * fragment, which no request carries.
 */
export function sharePaths(): ZodOpenApiPathsObject {
  const common = { tags: ["chat"], security: SIGNED_IN };
  return {
    "/api/shares": {
      get: {
        ...common,
        operationId: "listShares",
        summary: "The caller's share links, newest first: id, creation time and ciphertext size (never the ciphertext)",
        responses: { ...ok(api.shareList.response), ...errors(401, 403, 503) },
      },
      post: {
        ...common,
        operationId: "createShare",
        summary: `Store a chat snapshot sealed in the browser under a key kept in the link's fragment (at most ${SHARE_MAX_CIPHERTEXT_BYTES} bytes of ciphertext); 400 past ${MAX_SHARES_PER_USER} shares`,
        "x-max-body-bytes": api.shareCreate.maxBytes,
        requestBody: jsonBody(api.shareCreate.body, api.shareCreate.maxBytes),
        responses: {
          "201": { description: "Created.", content: { "application/json": { schema: api.shareCreate.response } } },
          ...errors(400, 401, 403, 413, 415, 429, 503),
        },
      },
      delete: {
        ...common,
        operationId: "revokeShare",
        summary: "Revoke one of the caller's share links (the stored ciphertext is deleted); 404 when not the caller's",
        "x-max-body-bytes": api.shareRevoke.maxBytes,
        requestBody: jsonBody(api.shareRevoke.body, api.shareRevoke.maxBytes),
        responses: { ...ok(api.shareRevoke.response), ...errors(400, 401, 403, 404, 413, 415, 503) },
      },
    },
    "/api/shares/{shareId}": {
      get: {
        tags: ["chat"],
        security: ANYONE,
        operationId: "getShare",
        summary: "A shared snapshot's ciphertext, for anyone with the link; 404 when missing or revoked",
        requestParams: { path: z.object({ shareId: z.string().min(1).meta({ description: "The share's id, a UUID (any other value: 404)" }) }) },
        responses: { ...ok(api.shareGet.response), ...errors(404, 429, 503) },
      },
    },
  };
}
