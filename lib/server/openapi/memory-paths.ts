import type { ZodOpenApiPathsObject } from "zod-openapi";
import { errors, jsonBody, ok, SIGNED_IN } from "./helpers";
import { api } from "@/lib/shared/api/contract";

/**
 * The memory endpoints (docs/issues.md #41) for the OpenAPI document; schemas and body limits from the API
 * contract (lib/shared/api/contract.ts).
 */
export function memoryPaths(): ZodOpenApiPathsObject {
  const common = { tags: ["memory"], security: SIGNED_IN };
  return {
    "/api/memory": {
      get: {
        ...common,
        operationId: "getMemory",
        summary: "The caller's memories, one ciphertext sealed in the browser under the vault key, and its version",
        responses: { ...ok(api.memoryGet.response), ...errors(401, 403, 503) },
      },
      post: {
        ...common,
        operationId: "putMemory",
        summary: "Store the sealed memories as version base_version + 1 when the stored version is base_version; 409 without a vault or when another device wrote first",
        "x-max-body-bytes": api.memoryPut.maxBytes,
        requestBody: jsonBody(api.memoryPut.body, api.memoryPut.maxBytes),
        responses: { ...ok(api.memoryPut.response), ...errors(400, 401, 403, 409, 413, 415, 503) },
      },
    },
  };
}
