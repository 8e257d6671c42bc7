import type { apiFetch } from "@/lib/browser/api/client";
import { decryptField, encryptField, fromBase64, toBase64, vaultDecryptionError } from "./crypto";
import type { Passage } from "@/lib/browser/knowledge/passages";

export interface PlainProjectFile {
  name: string;
  type: string;
  passages: Passage[];
}

export async function sealProjectFile(key: CryptoKey, userId: string, projectId: string, fileId: string, file: PlainProjectFile): Promise<string> {
  return toBase64(await encryptField(key, { field: "project_file", userId, projectId, fileId }, JSON.stringify(file)));
}

/** @throws AppError "unprocessable:vault_decrypt" when it does not authenticate or is not a file */
export async function openProjectFile(key: CryptoKey, userId: string, projectId: string, fileId: string, sealed: string): Promise<PlainProjectFile> {
  const parsed = JSON.parse(await decryptField(key, { field: "project_file", userId, projectId, fileId }, fromBase64(sealed))) as Partial<PlainProjectFile>;
  if (typeof parsed.name !== "string" || !Array.isArray(parsed.passages)) throw vaultDecryptionError("Malformed project file.");
  return {
    name: parsed.name,
    type: String(parsed.type ?? "text"),
    passages: parsed.passages.map((p) => ({ section: String(p.section ?? ""), text: String(p.text ?? "") })),
  };
}

/** Seal every file that opens under `oldKey` again under `nextKey`. @returns how many. @throws AppError */
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
