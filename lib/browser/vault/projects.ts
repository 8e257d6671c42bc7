import type { apiFetch } from "@/lib/browser/api/client";
import { decryptField, encryptField, fromBase64, toBase64 } from "./crypto";
import { PROJECT_INSTRUCTIONS_MAX_CHARS, PROJECT_NAME_MAX_CHARS } from "@/lib/shared/projects/limits";

export interface PlainProject {
  name: string;
  instructions: string;
}

function normalizeProject(input: PlainProject): PlainProject {
  return {
    name: input.name.replace(/\s+/g, " ").trim().slice(0, PROJECT_NAME_MAX_CHARS),
    instructions: input.instructions.trim().slice(0, PROJECT_INSTRUCTIONS_MAX_CHARS),
  };
}

export async function sealProject(key: CryptoKey, userId: string, projectId: string, project: PlainProject): Promise<string> {
  const clean = normalizeProject(project);
  return toBase64(await encryptField(key, { field: "project", userId, projectId }, JSON.stringify(clean)));
}

/** @throws AppError "unprocessable:vault_decrypt" when it does not authenticate or is not a project */
export async function openProject(key: CryptoKey, userId: string, projectId: string, sealed: string): Promise<PlainProject> {
  const text = await decryptField(key, { field: "project", userId, projectId }, fromBase64(sealed));
  const parsed = JSON.parse(text) as Partial<PlainProject>;
  return { name: String(parsed.name ?? ""), instructions: String(parsed.instructions ?? "") };
}

/** Seal every project that opens under `oldKey` again under `nextKey`. @returns how many. @throws AppError */
export async function resealProjects(api: typeof apiFetch, userId: string, oldKey: CryptoKey, nextKey: CryptoKey): Promise<number> {
  const { projects } = await api("projectList");
  let resealed = 0;
  for (const p of projects) {
    const plain = await openProject(oldKey, userId, p.project_id, p.sealed).catch(() => null);
    if (!plain) continue;
    await api("projectUpdate", { body: { project_id: p.project_id, sealed: await sealProject(nextKey, userId, p.project_id, plain) } });
    resealed += 1;
  }
  return resealed;
}
