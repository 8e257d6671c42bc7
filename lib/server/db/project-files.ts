import "server-only";
import { getDb, type PrismaClient } from "@/lib/server/db/client";
import { projectNotFound } from "@/lib/server/db/projects";
import { AppError } from "@/lib/shared/errors";
import { MAX_FILES_PER_PROJECT, formatLimit } from "@/lib/shared/projects/knowledge-limits";

/** Project files: browser-sealed ciphertext counted against the plan's limit per project. */

export const projectFileNotFound = () => new AppError("not_found:project_file", "File not found.");

/** 409 with the limit in words. */
const projectFilesFull = (limitBytes: number) =>
  new AppError(
    "conflict:project_files_limit",
    `A project's files can take at most ${formatLimit(limitBytes)} on your plan, and at most ${MAX_FILES_PER_PROJECT} files. Delete a file to make room.`,
  );

export interface ProjectFileEntry {
  fileId: string;
  projectId: string;
  bytes: number;
  createdAt: Date;
}

export async function listProjectFiles(userId: string): Promise<ProjectFileEntry[]> {
  const db = await getDb();
  const rows = await db.projectFile.findMany({
    where: { userId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, projectId: true, bytes: true, createdAt: true },
  });
  return rows.map((r) => ({ fileId: r.id, projectId: r.projectId, bytes: r.bytes, createdAt: r.createdAt }));
}

export async function readProjectFile(userId: string, fileId: string): Promise<{ projectId: string; sealed: Uint8Array<ArrayBuffer> }> {
  const db = await getDb();
  const row = await db.projectFile.findUnique({ where: { userId_id: { userId, id: fileId } }, select: { projectId: true, sealed: true } });
  if (!row) throw projectFileNotFound();
  return { projectId: row.projectId, sealed: new Uint8Array(row.sealed) };
}

type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** At READ COMMITTED two concurrent writes would both see room. */
async function lockProject(tx: Tx, userId: string, target: { projectId: string } | { fileId: string }): Promise<boolean> {
  const rows =
    "projectId" in target
      ? await tx.$queryRaw<unknown[]>`SELECT 1 FROM projects WHERE user_id = ${userId} AND id = ${target.projectId}::uuid FOR UPDATE`
      : await tx.$queryRaw<unknown[]>`
          SELECT 1 FROM projects p JOIN project_files f ON f.user_id = p.user_id AND f.project_id = p.id
          WHERE f.user_id = ${userId} AND f.id = ${target.fileId}::uuid FOR UPDATE OF p`;
  return rows.length > 0;
}

/** @throws AppError not_found:project, conflict:project_files_limit, conflict:project_file_exists */
export async function createProjectFile(input: {
  userId: string;
  projectId: string;
  fileId: string;
  sealed: Uint8Array<ArrayBuffer>;
  limitBytes: number;
}): Promise<{ bytes: number; createdAt: Date }> {
  const db = await getDb();
  const bytes = input.sealed.byteLength;
  const sealed = Buffer.from(input.sealed).toString("base64");
  const row = await db.$transaction(async (tx) => {
    if (!(await lockProject(tx, input.userId, { projectId: input.projectId }))) throw projectNotFound();
    const [r] = await tx.$queryRaw<{ used: number; files: number; inserted: Date | null }[]>`
      WITH n AS (SELECT coalesce(sum(bytes), 0)::bigint AS used, count(*)::int AS files FROM project_files WHERE user_id = ${input.userId} AND project_id = ${input.projectId}::uuid),
      ins AS (
        INSERT INTO project_files (id, user_id, project_id, sealed, bytes, created_at)
        SELECT ${input.fileId}::uuid, ${input.userId}, ${input.projectId}::uuid, decode(${sealed}::text, 'base64'), ${bytes}, date_trunc('minute', now())
        FROM n WHERE n.used + ${bytes} <= ${input.limitBytes} AND n.files < ${MAX_FILES_PER_PROJECT}
        ON CONFLICT DO NOTHING
        RETURNING created_at
      )
      SELECT (SELECT used FROM n)::int AS used, (SELECT files FROM n) AS files, (SELECT created_at FROM ins) AS inserted`;
    return r;
  });
  if (row?.inserted) return { bytes, createdAt: new Date(row.inserted) };
  if (!row || row.used + bytes > input.limitBytes || row.files >= MAX_FILES_PER_PROJECT) throw projectFilesFull(input.limitBytes);
  throw new AppError("conflict:project_file_exists", "This file already exists.");
}

/** A new ciphertext no larger than the old one is always taken. @throws AppError not_found:project_file, conflict:project_files_limit */
export async function resealProjectFile(userId: string, fileId: string, sealed: Uint8Array<ArrayBuffer>, limitBytes: number): Promise<void> {
  const db = await getDb();
  const bytes = sealed.byteLength;
  const b64 = Buffer.from(sealed).toString("base64");
  const updated = await db.$transaction(async (tx) => {
    if (!(await lockProject(tx, userId, { fileId }))) throw projectFileNotFound();
    const [row] = await tx.$queryRaw<{ updated: number }[]>`
      WITH f AS (SELECT project_id, bytes FROM project_files WHERE user_id = ${userId} AND id = ${fileId}::uuid),
      n AS (SELECT coalesce(sum(pf.bytes), 0)::bigint AS used FROM project_files pf JOIN f ON pf.project_id = f.project_id WHERE pf.user_id = ${userId}),
      up AS (
        UPDATE project_files SET sealed = decode(${b64}::text, 'base64'), bytes = ${bytes}
        FROM f, n
        WHERE project_files.user_id = ${userId} AND project_files.id = ${fileId}::uuid
          AND (${bytes} <= f.bytes OR n.used - f.bytes + ${bytes} <= ${limitBytes})
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM up)::int AS updated`;
    return row?.updated ?? 0;
  });
  if (!updated) throw projectFilesFull(limitBytes);
}

export async function deleteProjectFile(userId: string, fileId: string): Promise<void> {
  const db = await getDb();
  const { count } = await db.projectFile.deleteMany({ where: { userId, id: fileId } });
  if (count !== 1) throw projectFileNotFound();
}
