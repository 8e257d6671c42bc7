import { z } from "@/lib/shared/zod";
import { paddedSealed } from "@/lib/shared/vault/schemas";
import { LOWERCASE_UUID } from "@/lib/shared/uuid";

export { MAX_PROJECTS, PROJECT_INSTRUCTIONS_MAX_CHARS, PROJECT_NAME_MAX_CHARS } from "./limits";

// 4,100 characters of at most 6 bytes each pad to the 32 KiB bucket, plus 29 bytes: 43,732 base64 characters.
const SEALED_PROJECT_MAX_B64 = 43_800;

export const PROJECT_MAX_BODY_BYTES = 48 * 1024;
export const PROJECT_ID_MAX_BODY_BYTES = 1024;

const projectId = z.string().regex(LOWERCASE_UUID, "must be a lowercase UUID");

export const projectBodySchema = z.object({ project_id: projectId, sealed: paddedSealed(SEALED_PROJECT_MAX_B64) }).strict();

export const projectIdBodySchema = z.object({ project_id: projectId }).strict();

export const projectChatBodySchema = z
  .object({
    chat_id: z.string().regex(LOWERCASE_UUID, "must be a lowercase UUID"),
    project_id: projectId.nullable(),
  })
  .strict();
