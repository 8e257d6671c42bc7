import "server-only";
import { getDb } from "@/lib/server/db/client";
import { chatNotFound, noVault } from "@/lib/server/db/errors";
import { AppError } from "@/lib/shared/errors";
import { MAX_PROJECTS } from "@/lib/shared/projects/limits";

/** Projects: browser-sealed ciphertext, scoped by user. */

/** Unknown, or another user's: 404 either way. */
export const projectNotFound = () => new AppError("not_found:project", "Project not found.");

const projectLimit = () => new AppError("conflict:project_limit", `You can have at most ${MAX_PROJECTS} projects. Delete one to make room.`);

const projectExists = () => new AppError("conflict:project_exists", "This project already exists.");

export interface StoredProject {
  projectId: string;
  sealed: Uint8Array<ArrayBuffer>;
  createdAt: Date;
}

export async function listProjects(userId: string): Promise<{ projects: StoredProject[]; chats: { chatId: string; projectId: string }[] }> {
  const db = await getDb();
  const [projects, chats] = await Promise.all([
    db.project.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: MAX_PROJECTS, select: { id: true, sealed: true, createdAt: true } }),
    db.chat.findMany({ where: { userId, projectId: { not: null } }, select: { id: true, projectId: true } }),
  ]);
  return {
    projects: projects.map((p) => ({ projectId: p.id, sealed: new Uint8Array(p.sealed), createdAt: p.createdAt })),
    chats: chats.map((c) => ({ chatId: c.id, projectId: c.projectId as string })),
  };
}

/** @throws AppError conflict:no_vault, conflict:project_limit, conflict:project_exists */
export async function createProject(input: { userId: string; projectId: string; sealed: Uint8Array<ArrayBuffer> }): Promise<{ createdAt: Date }> {
  const db = await getDb();
  const sealed = Buffer.from(input.sealed).toString("base64");
  const [row] = await db.$queryRaw<{ has_vault: number; existing: number; inserted: Date | null }[]>`
    WITH v AS (SELECT 1 FROM vaults WHERE user_id = ${input.userId}),
    n AS (SELECT count(*)::int AS c FROM projects WHERE user_id = ${input.userId}),
    ins AS (
      INSERT INTO projects (id, user_id, sealed, created_at)
      SELECT ${input.projectId}::uuid, ${input.userId}, decode(${sealed}::text, 'base64'), date_trunc('minute', now())
      FROM v, n WHERE n.c < ${MAX_PROJECTS}
      ON CONFLICT DO NOTHING
      RETURNING created_at
    )
    SELECT (SELECT count(*) FROM v)::int AS has_vault, (SELECT c FROM n) AS existing, (SELECT created_at FROM ins) AS inserted`;
  if (!row?.has_vault) throw noVault();
  if (row.inserted) return { createdAt: new Date(row.inserted) };
  if (row.existing >= MAX_PROJECTS) throw projectLimit();
  throw projectExists();
}

/** @throws AppError not_found:project */
export async function updateProject(input: { userId: string; projectId: string; sealed: Uint8Array<ArrayBuffer> }): Promise<void> {
  const db = await getDb();
  const { count } = await db.project.updateMany({ where: { userId: input.userId, id: input.projectId }, data: { sealed: input.sealed } });
  if (count !== 1) throw projectNotFound();
}

/** Its chats move out. @returns how many moved. @throws AppError not_found:project */
export async function deleteProject(input: { userId: string; projectId: string }): Promise<{ chatsMoved: number }> {
  const db = await getDb();
  const { userId, projectId } = input;
  const [moved, deleted] = await db.$transaction([
    db.chat.updateMany({ where: { userId, projectId }, data: { projectId: null } }),
    db.project.deleteMany({ where: { userId, id: projectId } }),
  ]);
  if (deleted.count !== 1) throw projectNotFound();
  return { chatsMoved: moved.count };
}

/** `projectId` null takes it out. @throws AppError not_found:chat, not_found:project */
export async function moveChatToProject(input: { userId: string; chatId: string; projectId: string | null }): Promise<void> {
  const db = await getDb();
  const { userId, chatId, projectId } = input;
  if (projectId !== null) {
    const project = await db.project.findUnique({ where: { userId_id: { userId, id: projectId } }, select: { id: true } });
    if (!project) throw projectNotFound();
  }
  try {
    const { count } = await db.chat.updateMany({ where: { userId, id: chatId }, data: { projectId } });
    if (count !== 1) throw chatNotFound();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (projectId !== null && !(await db.project.findUnique({ where: { userId_id: { userId, id: projectId } }, select: { id: true } }))) throw projectNotFound();
    throw error;
  }
}
