import { z } from "@/lib/shared/zod";
import { paddedSealed } from "@/lib/shared/vault/schemas";
import { LOWERCASE_UUID } from "@/lib/shared/uuid";

/**
 * Request schemas of /api/projects/files (docs/issues.md #41). A file's name, kind and passages travel only as one
 * ciphertext sealed in the browser (lib/browser/vault/project-files.ts); the server sees its size and its project.
 */

/**
 * Base64 characters of one sealed file: its plaintext pads to at most the 4 MiB bucket (1,000,000 characters of
 * text as JSON passages), plus 29 bytes: 5,592,448 base64 characters.
 */
const SEALED_FILE_MAX_B64 = 5_592_500;

/** Bytes of a POST /api/projects/files body. */
export const PROJECT_FILE_MAX_BODY_BYTES = 5_600_000;
/** Bytes of a body naming a file id only. */
export const PROJECT_FILE_ID_MAX_BODY_BYTES = 1024;

const uuid = z.string().regex(LOWERCASE_UUID, "must be a lowercase UUID");

/** POST /api/projects/files `{ project_id, file_id, sealed }`: the id the browser chose and bound into the seal. */
export const projectFileBodySchema = z.object({ project_id: uuid, file_id: uuid, sealed: paddedSealed(SEALED_FILE_MAX_B64) }).strict();

/** PATCH /api/projects/files `{ file_id, sealed }`: the same file sealed again (key rotation). */
export const projectFileResealSchema = z.object({ file_id: uuid, sealed: paddedSealed(SEALED_FILE_MAX_B64) }).strict();

/** DELETE /api/projects/files `{ file_id }`. */
export const projectFileIdBodySchema = z.object({ file_id: uuid }).strict();

/** One project file without its ciphertext: ids, sealed size and time (to the minute). */
export const projectFileEntrySchema = z.object({ file_id: z.string(), project_id: z.string(), bytes: z.number().int(), created_at: z.string() });

/** GET /api/projects/files: the caller's files (every project) and their plan's limit per project. */
export const projectFileListSchema = z.object({
  files: z.array(projectFileEntrySchema),
  limit_bytes: z.number().int().meta({ description: "Bytes of sealed files one project may hold on the caller's plan." }),
  max_files: z.number().int().meta({ description: "Files one project may hold." }),
});

/** GET /api/projects/files/{fileId}: one file's ciphertext. */
export const projectFileSchema = z.object({
  file_id: z.string(),
  project_id: z.string(),
  sealed: z.string().meta({ description: "Base64 vault ciphertext of the JSON {name, type, passages} (lib/browser/vault/project-files.ts)." }),
});
