"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import { apiFetch } from "@/lib/browser/api/client";
import { readAttachment } from "@/lib/browser/files/browser";
import { fileKind } from "@/lib/browser/files/kinds";
import type { PdfLimits } from "@/lib/browser/pdf";
import { splitPassages } from "@/lib/browser/knowledge/passages";
import { bm25Retriever, passagesForTurn, type FilePassage } from "@/lib/browser/knowledge/retrieval";
import { openProjectFile, sealProjectFile } from "@/lib/browser/vault/project-files";
import { PROJECT_FILE_MAX_BYTES, PROJECT_FILE_MAX_CHARS } from "@/lib/shared/projects/knowledge-limits";
import { AppError } from "@/lib/shared/errors";
import type { VaultKey } from "@/components/chat/types";

/** A project file as listed: its name once opened, its sealed size, its passages. */
export interface ProjectFileItem {
  id: string;
  projectId: string;
  name: string;
  bytes: number;
  passages: FilePassage[];
}

const FALLBACK_PDF: PdfLimits = { maxBytes: PROJECT_FILE_MAX_BYTES, maxChars: PROJECT_FILE_MAX_CHARS, maxPages: 100, timeoutMs: 15_000, maxInflatedBytes: 200 * 1024 * 1024 };

/** Open every listed file of the user with the vault key (a file that does not open is left out). */
async function loadFiles(vault: VaultKey) {
  const listed = await apiFetch("projectFileList");
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
 * The files of the user's projects (docs/issues.md #41, "Project knowledge"), opened here with the vault key and
 * ranked here for each turn (lib/browser/knowledge/retrieval.ts); added by reading the file in this browser with
 * the chat's readers (lib/browser/files), splitting it into passages and sealing it
 * (lib/browser/vault/project-files.ts). `vault` null: nothing loads and no passage is sent.
 * Writes throw AppError, FileError or PdfError for the caller to show.
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
    const out = new Map<string, { files: ProjectFileItem[]; retriever: ReturnType<typeof bm25Retriever> }>();
    const ids = new Set(files.map((f) => f.projectId));
    for (const id of ids) {
      const mine = files.filter((f) => f.projectId === id);
      out.set(id, { files: mine, retriever: bm25Retriever(mine.flatMap((f) => f.passages)) });
    }
    return out;
  }, [files]);

  /** Read, split, seal and store `file` in project `projectId`. */
  const add = useCallback(
    async (projectId: string, file: File) => {
      if (!vault) throw new AppError("conflict:no_vault", "Turn on Save history first.");
      const kind = fileKind(file);
      if (!kind || kind === "image") throw new AppError("bad_request:project_file", "Add a PDF, Word (DOCX), text, Markdown, CSV or JSON file.");
      const read = await readAttachment(file, { ...(pdfLimits ?? FALLBACK_PDF), maxBytes: PROJECT_FILE_MAX_BYTES, maxChars: PROJECT_FILE_MAX_CHARS }, undefined);
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
    /** The files of one project, oldest first. */
    filesOf: (projectId: string | null): ProjectFileItem[] => (vault && projectId ? (byProject.get(projectId)?.files ?? []) : []),
    /** The passages to send with a turn of project `projectId` asking `query` (empty without files). */
    passagesFor: async (projectId: string | null, query: string): Promise<FilePassage[]> => {
      const entry = vault && projectId ? byProject.get(projectId) : undefined;
      return entry ? passagesForTurn(entry.retriever, query) : [];
    },
  };
}
