"use client";

import { useMemo, useState } from "react";
import { useProjects } from "@/lib/browser/projects/use-projects";
import { useProjectFiles } from "@/lib/browser/projects/use-project-files";
import type { PdfLimits } from "@/lib/browser/pdf";
import type { VaultKey } from "@/lib/browser/vault/types";
import type { HistoryEntry } from "./use-chat-history";

/** The projects, their files and the one picked in the sidebar (docs/issues.md #41); `projectOf(null)`: a new chat's. */
export function useProjectScope(vaultKey: VaultKey | null, chats: HistoryEntry[], pdfLimits?: PdfLimits) {
  const projects = useProjects(vaultKey);
  const files = useProjectFiles(vaultKey, pdfLimits);
  const [activeProjectId, setActiveProjectId] = useState<string | null>(null);
  const projectOf = (chatId: string | null) => (chatId ? (projects.membership.get(chatId) ?? null) : activeProjectId);
  const projectById = (id: string | null) => projects.projects.find((p) => p.id === id) ?? null;
  // The list shows the chats of the project picked in the sidebar, else the chats outside projects.
  const listed = useMemo(
    () => chats.filter((c) => (projects.membership.get(c.chat_id) ?? null) === activeProjectId),
    [chats, projects.membership, activeProjectId],
  );
  return { projects, files, activeProjectId, setActiveProjectId, projectOf, projectById, listed };
}
