import type { ComponentType } from "react";
import type { useProjectFiles } from "@/lib/browser/projects/use-project-files";
import type { Project } from "@/lib/browser/projects/use-projects";
import type { SharedSnapshot } from "@/lib/browser/share/crypto";
import type { VaultJson } from "@/lib/browser/vault/store";
import type { PlainProject } from "@/lib/browser/vault/projects";

/**
 * The other features' pieces the chat shows (components/share, components/projects, components/vault), handed in
 * by the page that composes them, so that chat imports no other feature folder (eslint.config.mjs).
 */
export interface ChatParts {
  ShareDialog: ComponentType<{ open: boolean; onClose: () => void; snapshot: () => SharedSnapshot }>;
  MoveChatDialog: ComponentType<{
    open: boolean;
    projects: Project[];
    current: string | null;
    onClose: () => void;
    onMove: (projectId: string | null) => void;
  }>;
  ProjectList: ComponentType<{
    projects: Project[];
    activeProjectId: string | null;
    onSelect: (projectId: string | null) => void;
    onCreate: (project: PlainProject) => Promise<Project>;
    onUpdate: (id: string, project: PlainProject) => Promise<void>;
    onDelete: (id: string) => Promise<number>;
    files: ReturnType<typeof useProjectFiles>;
  }>;
  UnlockPanel: ComponentType<{ info: VaultJson }>;
  VaultSetupDialog: ComponentType<{ open: boolean; onClose: () => void; onDone: () => void }>;
}
