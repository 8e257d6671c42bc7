import type { ZodOpenApiPathsObject } from "zod-openapi";
import { operation, pathsOf } from "./helpers";
import { api } from "@/lib/shared/api/contract";

/** The memory endpoints. */
export function memoryPaths(): ZodOpenApiPathsObject {
  const tags = ["memory"];
  return pathsOf([
    operation(api.memoryGet, {
      operationId: "getMemory",
      tags,
      summary: "The caller's memories, one ciphertext sealed in the browser under the vault key, and its version",
    }),
    operation(api.memoryPut, {
      operationId: "putMemory",
      tags,
      summary: "Store the sealed memories as version base_version + 1 when the stored version is base_version; 409 without a vault or when another device wrote first",
      errors: [409],
    }),
  ]);
}
