import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { createProjectFile, deleteProjectFile, listProjectFiles, resealProjectFile } from "@/lib/server/db/project-files";
import { getPlan } from "@/lib/server/plans";
import { MAX_FILES_PER_PROJECT, PROJECT_FILES_LIMIT_BYTES } from "@/lib/shared/projects/knowledge-limits";

// /api/projects/files (docs/issues.md #41): sealed in the browser; the server checks sizes only.

const limitFor = async (userId: string) => PROJECT_FILES_LIMIT_BYTES[await getPlan(userId)];

export const GET = route(api.projectFileList, async ({ user }) => {
  const [files, limit] = await Promise.all([listProjectFiles(user.id), limitFor(user.id)]);
  return reply(
    api.projectFileList,
    {
      files: files.map((f) => ({ file_id: f.fileId, project_id: f.projectId, bytes: f.bytes, created_at: f.createdAt.toISOString() })),
      limit_bytes: limit,
      max_files: MAX_FILES_PER_PROJECT,
    },
    { headers: PRIVATE_NO_STORE },
  );
});

/** 404 for a project not the caller's; 409 over the limit. */
export const POST = route(api.projectFileCreate, async ({ user, body }) => {
  const input = { userId: user.id, projectId: body.project_id, fileId: body.file_id, sealed: body.sealed, limitBytes: await limitFor(user.id) };
  const { bytes, createdAt } = await createProjectFile(input);
  return reply(api.projectFileCreate, { file_id: body.file_id, project_id: body.project_id, bytes, created_at: createdAt.toISOString() }, { status: 201 });
});

/** Resealed under a new vault key; 409 past the plan's limit. */
export const PATCH = route(api.projectFileReseal, async ({ user, body }) => {
  await resealProjectFile(user.id, body.file_id, body.sealed, await limitFor(user.id));
  return reply(api.projectFileReseal, { ok: true });
});

export const DELETE = route(api.projectFileDelete, async ({ user, body }) => {
  await deleteProjectFile(user.id, body.file_id);
  return reply(api.projectFileDelete, { ok: true });
});
