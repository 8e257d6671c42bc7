import type { apiFetch } from "@/lib/browser/api/client";
import { decryptField, encryptField, fromBase64, toBase64 } from "./crypto";
import { PROJECT_INSTRUCTIONS_MAX_CHARS, PROJECT_NAME_MAX_CHARS } from "@/lib/shared/projects/limits";

/**
 * A project's name and instructions, sealed and opened in the browser under the vault key
 * (and in tests acting as the browser). Both travel as one field, the JSON {name, instructions}, padded to
 * its bucket like every field (lib/browser/vault/crypto.ts format 3) and bound to the user and the project id
 * (associated data ["hush", 3, "project", userId, projectId]): a ciphertext moved to another project or
 * user fails to open. The server stores the base64 as given (POST/PATCH /api/projects).
 */

/** A project as the browser holds it, opened. */
export interface PlainProject {
  name: string;
  instructions: string;
}

/** The text of a project, tidied the way it is stored: one-line name, instructions trimmed, both cut to their caps. */
export function normalizeProject(input: PlainProject): PlainProject {
  return {
    name: input.name.replace(/\s+/g, " ").trim().slice(0, PROJECT_NAME_MAX_CHARS),
    instructions: input.instructions.trim().slice(0, PROJECT_INSTRUCTIONS_MAX_CHARS),
  };
}

/** Seal `project` (normalized first) for `projectId` of `userId`, as base64 for /api/projects. */
export async function sealProject(key: CryptoKey, userId: string, projectId: string, project: PlainProject): Promise<string> {
  const clean = normalizeProject(project);
  return toBase64(await encryptField(key, { field: "project", userId, projectId }, JSON.stringify(clean)));
}

/**
 * Open a sealed project. @throws AppError "unprocessable:vault_decrypt" (VaultDecryptionError) when it does
 * not authenticate (wrong key, moved or altered), or when its JSON is not a project.
 */
export async function openProject(key: CryptoKey, userId: string, projectId: string, sealed: string): Promise<PlainProject> {
  const text = await decryptField(key, { field: "project", userId, projectId }, fromBase64(sealed));
  const parsed = JSON.parse(text) as Partial<PlainProject>;
  return { name: String(parsed.name ?? ""), instructions: String(parsed.instructions ?? "") };
}

/**
 * Key rotation for projects: each project that opens under `oldKey` is sealed again under
 * `nextKey` and stored (PATCH /api/projects); one that does not (already sealed under the next key by an
 * interrupted rotation, or unreadable) is left as it is. Called by lib/browser/vault/rotation.ts before it finishes.
 * @returns how many were sealed again. @throws AppError (network, refused)
 */
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
