import { z } from "@/lib/shared/zod";
import { paddedSealed } from "@/lib/shared/vault/schemas";

/**
 * The request schemas of /api/memory (docs/issues.md #41). The memories travel only as one ciphertext sealed in
 * the browser under the vault key (lib/browser/vault/memory.ts); the server sees its size bucket and version.
 */

export { MAX_MEMORIES, MEMORY_MAX_CHARS, MEMORY_PROMPT_BUDGET_TOKENS } from "./limits";

/**
 * Base64 characters of the sealed list: the JSON of at most 100 facts of 500 characters (6 bytes each at
 * worst once encoded) with their ids and times, under 320 KB, padded to at most the 512 KiB bucket plus 29
 * bytes: 699,092 base64 characters.
 */
const SEALED_MEMORY_MAX_B64 = 699_100;

/** Bytes of a POST /api/memory body. */
export const MEMORY_MAX_BODY_BYTES = 700 * 1024;

/**
 * POST /api/memory `{ sealed, version, base_version }`: store the list sealed as `version`, only when the stored
 * one is still `base_version` (0: none yet), so two devices never overwrite each other unseen.
 */
export const memoryPutBodySchema = z
  .object({
    sealed: paddedSealed(SEALED_MEMORY_MAX_B64),
    version: z.number().int().min(1).max(2_000_000_000),
    base_version: z.number().int().min(0).max(2_000_000_000),
  })
  .strict()
  .refine((b) => b.version === b.base_version + 1, { message: "version must be base_version + 1", path: ["version"] });
