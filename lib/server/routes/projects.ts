import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { createProject, deleteProject, listProjects, updateProject } from "@/lib/server/db/projects";

// /api/projects: sealed in the browser; another user's project id answers 404 like an unknown one.

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

export const GET = route(api.projectList, async ({ user }) => {
  const { projects, chats } = await listProjects(user.id);
  return reply(
    api.projectList,
    {
      projects: projects.map((p) => ({ project_id: p.projectId, sealed: b64(p.sealed), created_at: p.createdAt.toISOString() })),
      chats: chats.map((c) => ({ chat_id: c.chatId, project_id: c.projectId })),
    },
    { headers: PRIVATE_NO_STORE },
  );
});

/** 409 without a vault, at the limit, or for an id the caller holds. */
export const POST = route(api.projectCreate, async ({ user, body }) => {
  const { createdAt } = await createProject({ userId: user.id, projectId: body.project_id, sealed: body.sealed });
  return reply(api.projectCreate, { project_id: body.project_id, sealed: b64(body.sealed), created_at: createdAt.toISOString() }, { status: 201 });
});

export const PATCH = route(api.projectUpdate, async ({ user, body }) => {
  await updateProject({ userId: user.id, projectId: body.project_id, sealed: body.sealed });
  return reply(api.projectUpdate, { ok: true });
});

/** Its chats stay, moved out of it. */
export const DELETE = route(api.projectDelete, async ({ user, body }) => {
  const { chatsMoved } = await deleteProject({ userId: user.id, projectId: body.project_id });
  return reply(api.projectDelete, { ok: true, chats_moved: chatsMoved });
});
