import { z } from "@/lib/shared/zod";
import { paddedSealed } from "@/lib/shared/vault/schemas";
import { LOWERCASE_UUID } from "@/lib/shared/uuid";

// The 4 MiB bucket plus 29 bytes: 5,592,448 base64 characters.
const SEALED_FILE_MAX_B64 = 5_592_500;

export const PROJECT_FILE_MAX_BODY_BYTES = 5_600_000;
export const PROJECT_FILE_ID_MAX_BODY_BYTES = 1024;

const uuid = z.string().regex(LOWERCASE_UUID, "must be a lowercase UUID");

export const projectFileBodySchema = z.object({ project_id: uuid, file_id: uuid, sealed: paddedSealed(SEALED_FILE_MAX_B64) }).strict();

export const projectFileResealSchema = z.object({ file_id: uuid, sealed: paddedSealed(SEALED_FILE_MAX_B64) }).strict();

export const projectFileIdBodySchema = z.object({ file_id: uuid }).strict();

export const projectFileEntrySchema = z.object({ file_id: z.string(), project_id: z.string(), bytes: z.number().int(), created_at: z.string() });

export const projectFileListSchema = z.object({
  files: z.array(projectFileEntrySchema),
  limit_bytes: z.number().int().meta({ description: "Bytes of sealed files one project may hold on the caller's plan." }),
  max_files: z.number().int().meta({ description: "Files one project may hold." }),
});

export const projectFileSchema = z.object({
  file_id: z.string(),
  project_id: z.string(),
  sealed: z.string().meta({ description: "Base64 vault ciphertext of the JSON {name, type, passages} (lib/browser/vault/project-files.ts)." }),
});
