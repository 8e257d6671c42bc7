import { z } from "@/lib/shared/zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { api } from "@/lib/shared/api/contract";
import { MAX_SHARES_PER_USER, SHARE_MAX_CIPHERTEXT_BYTES } from "@/lib/shared/share/schemas";
import { ANYONE, created, operation, pathsOf } from "./helpers";

/** The share-link endpoints: ciphertext only, as the key is in the link's fragment. */
export function sharePaths(): ZodOpenApiPathsObject {
  const tags = ["chat"];
  return pathsOf([
    operation(api.shareList, {
      operationId: "listShares",
      tags,
      summary: "The caller's share links, newest first: id, creation time and ciphertext size (never the ciphertext)",
    }),
    operation(api.shareCreate, {
      operationId: "createShare",
      tags,
      summary: `Store a chat snapshot sealed in the browser under a key kept in the link's fragment (at most ${SHARE_MAX_CIPHERTEXT_BYTES} bytes of ciphertext); 400 past ${MAX_SHARES_PER_USER} shares`,
      responses: created(api.shareCreate),
    }),
    operation(api.shareRevoke, {
      operationId: "revokeShare",
      tags,
      summary: "Revoke one of the caller's share links (the stored ciphertext is deleted); 404 when not the caller's",
      errors: [404],
    }),
    operation(api.shareGet, {
      operationId: "getShare",
      tags,
      security: ANYONE,
      summary: "A shared snapshot's ciphertext, for anyone with the link; 404 when missing or revoked",
      requestParams: { path: z.object({ shareId: z.string().min(1).meta({ description: "The share's id, a UUID (any other value: 404)" }) }) },
      errors: [404, 503],
    }),
  ]);
}
