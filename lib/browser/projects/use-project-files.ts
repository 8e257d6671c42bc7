"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { apiFetch } from "@/lib/browser/api/client";
import { fileKind } from "@/lib/browser/files/kinds";
import type { PdfLimits } from "@/lib/browser/pdf";
import type { FilePassage } from "@/lib/browser/knowledge/file-passage";
import type { Retriever } from "@/lib/browser/knowledge/retrieval";
import { projectFileSealing } from "@/lib/browser/vault/sealing-loaders";
import { PROJECT_FILE_MAX_BYTES, PROJECT_FILE_MAX_CHARS } from "@/lib/shared/projects/knowledge-limits";
import { AppError } from "@/lib/shared/errors";
import type { VaultKey } from "@/lib/browser/vault/types";

/** A listed project file: its name once opened, its sealed size, its passages. */
export interface ProjectFileItem {
  id: string;
  projectId: string;
  name: string;
  bytes: number;
  passages: FilePassage[];
}

// Sealing, splitting and ranking load when a project has files, not in /chat's first load (docs/issues.md #42).
const ranking = () => import("@/lib/browser/knowledge/retrieval");

const FALLBACK_PDF: PdfLimits = { maxBytes: PROJECT_FILE_MAX_BYTES, maxChars: PROJECT_FILE_MAX_CHARS, maxPages: 100, timeoutMs: 15_000, maxInflatedBytes: 200 * 1024 * 1024 };

/** Open every listed file (one that does not open is left out). */
async function loadFiles(vault: VaultKey) {
  const listed = await apiFetch("projectFileList");
  const { openProjectFile } = await projectFileSealing();
  const opened = await Promise.all(
    listed.files.map(async (f): Promise<ProjectFileItem | null> => {
      const { sealed } = await apiFetch("projectFileGet", { params: { fileId: f.file_id } });
      const plain = await openProjectFile(vault.key, vault.userId, f.project_id, f.file_id, sealed).catch(() => null);
      if (!plain) return null;
      return { id: f.file_id, projectId: f.project_id, name: plain.name, bytes: f.bytes, passages: plain.passages.map((p) => ({ ...p, fileName: plain.name })) };
    }),
  );
  return { files: opened.filter((f) => f !== null), limitBytes: listed.limit_bytes, maxFiles: listed.max_files };
}

/**
 * The files of the user's projects (docs/issues.md #41), read, sealed and ranked in this browser; `vault` null:
 * nothing loads. Writes throw AppError, FileError or PdfError for the caller to show.
 */
export function useProjectFiles(vault: VaultKey | null, pdfLimits?: PdfLimits) {
  const [files, setFiles] = useState<ProjectFileItem[]>([]);
  const [limits, setLimits] = useState<{ limitBytes: number; maxFiles: number } | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!vault) return;
    let live = true;
    loadFiles(vault)
      .then((loaded) => {
        if (!live) return;
        setFiles(loaded.files);
        setLimits({ limitBytes: loaded.limitBytes, maxFiles: loaded.maxFiles });
      })
      .catch(() => console.error("Failed to load project files"));
    return () => {
      live = false;
    };
  }, [vault, tick]);

  const byProject = useMemo(() => {
    const out = new Map<string, ProjectFileItem[]>();
    for (const f of files) out.set(f.projectId, [...(out.get(f.projectId) ?? []), f]);
    return out;
  }, [files]);
  // Each project's index, built at its first turn and kept while its files are unchanged.
  const retrievers = useRef(new WeakMap<ProjectFileItem[], Retriever>());

  const add = useCallback(
    async (projectId: string, file: File) => {
      if (!vault) throw new AppError("conflict:no_vault", "Turn on Save history first.");
      const kind = fileKind(file);
      if (!kind || kind === "image") throw new AppError("bad_request:project_file", "Add a PDF, Word (DOCX), text, Markdown, CSV or JSON file.");
      const { readAttachment } = await import("@/lib/browser/files/browser");
      const read = await readAttachment(file, { ...(pdfLimits ?? FALLBACK_PDF), maxBytes: PROJECT_FILE_MAX_BYTES, maxChars: PROJECT_FILE_MAX_CHARS }, undefined);
      const [{ splitPassages }, { sealProjectFile }] = await Promise.all([import("@/lib/browser/knowledge/passages"), projectFileSealing()]);
      const passages = splitPassages(read.text);
      const fileId = crypto.randomUUID();
      const sealed = await sealProjectFile(vault.key, vault.userId, projectId, fileId, { name: file.name, type: kind, passages });
      await apiFetch("projectFileCreate", { body: { project_id: projectId, file_id: fileId, sealed } });
      setTick((t) => t + 1);
    },
    [vault, pdfLimits],
  );

  const remove = useCallback(async (fileId: string) => {
    await apiFetch("projectFileDelete", { body: { file_id: fileId } });
    setFiles((current) => current.filter((f) => f.id !== fileId));
  }, []);

  return {
    limits,
    add,
    remove,
    filesOf: (projectId: string | null): ProjectFileItem[] => (vault && projectId ? (byProject.get(projectId) ?? []) : []),
    passagesFor: async (projectId: string | null, query: string): Promise<FilePassage[]> => {
      const mine = vault && projectId ? byProject.get(projectId) : undefined;
      if (!mine) return [];
      const { bm25Retriever, passagesForTurn } = await ranking();
      let retriever = retrievers.current.get(mine);
      if (!retriever) {
        retriever = bm25Retriever(mine.flatMap((f) => f.passages));
        retrievers.current.set(mine, retriever);
      }
      return passagesForTurn(retriever, query);
    },
  };
}
