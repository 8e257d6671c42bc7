import { z } from "@/lib/shared/zod";
import { paddedSealed } from "@/lib/shared/vault/schemas";
import { LOWERCASE_UUID } from "@/lib/shared/uuid";

/**
 * Projects: limits and the request schemas of /api/projects, browser-safe so the API
 * contract (lib/shared/api/contract.ts), the browser (components/projects) and the model prompt (lib/shared/llm/prompt.ts)
 * share them (the limits themselves are in ./limits.ts, free of zod). A project's name and instructions travel only as one ciphertext sealed in the browser
 * (lib/browser/vault/projects.ts); the server can check the ciphertext's size bucket, never the text.
 */

export { MAX_PROJECTS, PROJECT_INSTRUCTIONS_MAX_CHARS, PROJECT_NAME_MAX_CHARS } from "./limits";

/**
 * Base64 characters of a sealed project. Its plaintext is the JSON {name, instructions}: at most
 * 4,100 characters of at most 6 bytes each once encoded (a control character becomes \uXXXX), under 25 KB,
 * so it pads to at most the 32 KiB bucket (lib/shared/vault/padding.ts) plus 29 bytes: 43,732 base64 characters.
 */
const SEALED_PROJECT_MAX_B64 = 43_800;

/** Bytes of a /api/projects body (the sealed field and the JSON around it). */
export const PROJECT_MAX_BODY_BYTES = 48 * 1024;
/** Bytes of a body naming ids only. */
export const PROJECT_ID_MAX_BODY_BYTES = 1024;

const projectId = z.string().regex(LOWERCASE_UUID, "must be a lowercase UUID");

/** POST and PATCH /api/projects `{ project_id, sealed }`: the id the browser chose and bound into the seal. */
export const projectBodySchema = z.object({ project_id: projectId, sealed: paddedSealed(SEALED_PROJECT_MAX_B64) }).strict();

/** DELETE /api/projects `{ project_id }`. */
export const projectIdBodySchema = z.object({ project_id: projectId }).strict();

/** PATCH /api/projects/chat `{ chat_id, project_id }`: put a chat in a project, or (null) take it out. */
export const projectChatBodySchema = z
  .object({
    chat_id: z.string().regex(LOWERCASE_UUID, "must be a lowercase UUID"),
    project_id: projectId.nullable(),
  })
  .strict();
