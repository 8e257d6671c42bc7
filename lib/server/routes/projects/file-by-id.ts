import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { projectFileNotFound, readProjectFile } from "@/lib/server/db/project-files";
import { LOWERCASE_UUID } from "@/lib/shared/uuid";

/** GET /api/projects/files/{fileId} (docs/issues.md #41): one of the caller's sealed files; 404 otherwise. */
export const GET = route<typeof api.projectFileGet, { fileId: string }>(api.projectFileGet, async ({ user, params }) => {
  if (!LOWERCASE_UUID.test(params.fileId)) throw projectFileNotFound();
  const file = await readProjectFile(user.id, params.fileId);
  return reply(api.projectFileGet, { file_id: params.fileId, project_id: file.projectId, sealed: Buffer.from(file.sealed).toString("base64") }, { headers: PRIVATE_NO_STORE });
});
