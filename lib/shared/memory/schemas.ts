import { z } from "@/lib/shared/zod";
import { paddedSealed } from "@/lib/shared/vault/schemas";

export { MAX_MEMORIES, MEMORY_MAX_CHARS, MEMORY_PROMPT_BUDGET_TOKENS } from "./limits";

// At most 100 facts of 500 characters pad to the 512 KiB bucket, plus 29 bytes: 699,092 base64 characters.
const SEALED_MEMORY_MAX_B64 = 699_100;

export const MEMORY_MAX_BODY_BYTES = 700 * 1024;

/** POST /api/memory: store the list as `version` only when the stored one is still `base_version` (0: none). */
export const memoryPutBodySchema = z
  .object({
    sealed: paddedSealed(SEALED_MEMORY_MAX_B64),
    version: z.number().int().min(1).max(2_000_000_000),
    base_version: z.number().int().min(0).max(2_000_000_000),
  })
  .strict()
  .refine((b) => b.version === b.base_version + 1, { message: "version must be base_version + 1", path: ["version"] });
