import type { apiFetch } from "@/lib/browser/api/client";
import { decryptField, encryptField, fromBase64, toBase64, vaultDecryptionError } from "./crypto";
import type { Passage } from "@/lib/browser/knowledge/passages";

/**
 * A project's file (docs/issues.md #41), sealed and opened in the browser under the vault key: its name, type and
 * passages as one field, the JSON {name, type, passages}, padded to its bucket (lib/browser/vault/crypto.ts format 3)
 * and bound to user, project and file (["hush", 3, "project_file", userId, projectId, fileId]): a ciphertext moved to
 * another file, project or user fails to open. The server stores the base64 as given (/api/projects/files).
 */

/** A project file as the browser holds it, opened. */
export interface PlainProjectFile {
  name: string;
  /** The kind read: pdf, docx or text. */
  type: string;
  passages: Passage[];
}

/** Seal `file` for `fileId` of `projectId` of `userId`, as base64 for POST /api/projects/files. */
export async function sealProjectFile(key: CryptoKey, userId: string, projectId: string, fileId: string, file: PlainProjectFile): Promise<string> {
  return toBase64(await encryptField(key, { field: "project_file", userId, projectId, fileId }, JSON.stringify(file)));
}

/** Open a sealed file. @throws AppError "unprocessable:vault_decrypt" when it does not authenticate or is not a file. */
export async function openProjectFile(key: CryptoKey, userId: string, projectId: string, fileId: string, sealed: string): Promise<PlainProjectFile> {
  const parsed = JSON.parse(await decryptField(key, { field: "project_file", userId, projectId, fileId }, fromBase64(sealed))) as Partial<PlainProjectFile>;
  if (typeof parsed.name !== "string" || !Array.isArray(parsed.passages)) throw vaultDecryptionError("Malformed project file.");
  return {
    name: parsed.name,
    type: String(parsed.type ?? "text"),
    passages: parsed.passages.map((p) => ({ section: String(p.section ?? ""), text: String(p.text ?? "") })),
  };
}

/**
 * Key rotation (docs/issues.md #21) for project files: each file that opens under `oldKey` is sealed again under
 * `nextKey` (PATCH /api/projects/files). Called by ./rotation.ts before it finishes.
 * @returns how many were sealed again. @throws AppError (network, refused)
 */
export async function resealProjectFiles(api: typeof apiFetch, userId: string, oldKey: CryptoKey, nextKey: CryptoKey): Promise<number> {
  const { files } = await api("projectFileList");
  let resealed = 0;
  for (const f of files) {
    const { sealed } = await api("projectFileGet", { params: { fileId: f.file_id } });
    const plain = await openProjectFile(oldKey, userId, f.project_id, f.file_id, sealed).catch(() => null);
    if (!plain) continue;
    await api("projectFileReseal", { body: { file_id: f.file_id, sealed: await sealProjectFile(nextKey, userId, f.project_id, f.file_id, plain) } });
    resealed += 1;
  }
  return resealed;
}
