"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { createPortal } from "react-dom";
import { ConfirmDialog } from "@/components/ui/dialog";
import { useOpenedOnce } from "@/components/ui/use-opened-once";
import { toast } from "@/components/ui/toaster";
import { MAX_PROJECTS } from "@/lib/shared/projects/limits";
import type { PlainProject } from "@/lib/browser/vault/projects";
import type { useProjectFiles } from "@/lib/browser/projects/use-project-files";
import type { Project } from "@/lib/browser/projects/use-projects";

// The project and files dialogs are fetched when first opened, not in /chat's first load (docs/issues.md #42).
const ProjectDialog = dynamic(() => import("./project-dialog").then((m) => m.ProjectDialog), { ssr: false });
const ProjectFilesDialog = dynamic(() => import("./project-files-dialog").then((m) => m.ProjectFilesDialog), { ssr: false });

interface ProjectListProps {
  projects: Project[];
  /** The project whose chats are shown and new chats go into; null: chats outside projects. */
  activeProjectId: string | null;
  onSelect: (projectId: string | null) => void;
  onCreate: (project: PlainProject) => Promise<Project>;
  onUpdate: (id: string, project: PlainProject) => Promise<void>;
  /** Resolves to how many chats moved out. */
  onDelete: (id: string) => Promise<number>;
  /** docs/issues.md #41. */
  files: ReturnType<typeof useProjectFiles>;
}

/** The sidebar's projects, above the chats; deleting one keeps its chats. */
export function ProjectList(props: ProjectListProps) {
  const [editing, setEditing] = useState<Project | "new" | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);
  const [filesOf, setFilesOf] = useState<Project | null>(null);
  const editorShown = useOpenedOnce(editing !== null);
  const filesShown = useOpenedOnce(filesOf !== null);
  const atLimit = props.projects.length >= MAX_PROJECTS;

  return (
    <section aria-label="Projects" className="mb-3">
      <div className="flex items-center justify-between px-3 pb-1">
        <h2 className="text-xs font-semibold text-ink-500">Projects</h2>
        <button
          type="button"
          onClick={() => setEditing("new")}
          disabled={atLimit}
          title={atLimit ? `You can have at most ${MAX_PROJECTS} projects` : "New project"}
          className="rounded-md px-1.5 py-0.5 text-xs font-medium text-brand-700 hover:bg-ink-100 disabled:opacity-50"
        >
          + New project
        </button>
      </div>
      <ul className="flex flex-col gap-0.5">
        {props.projects.map((p) => {
          const active = p.id === props.activeProjectId;
          return (
            <li key={p.id} className="group relative">
              <button
                type="button"
                onClick={() => props.onSelect(p.id)}
                aria-current={active ? "true" : undefined}
                className={`flex w-full items-center gap-2 rounded-lg px-3 py-2 pr-24 text-left text-sm font-medium text-ink-900 hover:bg-ink-100 ${active ? "bg-white shadow-sm ring-1 ring-ink-200" : ""}`}
              >
                <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 shrink-0 text-ink-500" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
                  <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2Z" />
                </svg>
                <span className="truncate">{p.name}</span>
              </button>
              <div className="absolute right-1.5 top-1/2 flex -translate-y-1/2 gap-0.5 opacity-100 focus-within:opacity-100 md:opacity-0 md:group-hover:opacity-100">
                <RowButton label={`Files of project ${p.name}`} onClick={() => setFilesOf(p)}>
                  <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8ZM14 3v5h5M9 13h6M9 17h6" />
                </RowButton>
                <RowButton label={`Edit project ${p.name}`} onClick={() => setEditing(p)}>
                  <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
                </RowButton>
                <RowButton label={`Delete project ${p.name}`} onClick={() => setDeleting(p)} danger>
                  <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
                </RowButton>
              </div>
            </li>
          );
        })}
      </ul>
      {props.activeProjectId && (
        <button type="button" onClick={() => props.onSelect(null)} className="mt-1 w-full rounded-lg px-3 py-1.5 text-left text-xs font-medium text-brand-700 hover:bg-ink-100">
          ← All chats
        </button>
      )}

      {/* In the page's body, not in the sidebar: a phone's closed drawer would hide them. */}
      {createPortal(
        <>
          {editorShown && <ProjectDialog
            open={editing !== null}
            initial={editing === "new" || editing === null ? null : editing}
            onClose={() => setEditing(null)}
            onSave={async (plain) => {
              if (editing === "new") {
                const created = await props.onCreate(plain);
                props.onSelect(created.id);
                toast.success("Project created");
              } else if (editing) {
                await props.onUpdate(editing.id, plain);
                toast.success("Project saved");
              }
            }}
          />}

          {filesShown && <ProjectFilesDialog
            open={filesOf !== null}
            projectName={filesOf?.name ?? ""}
            files={props.files.filesOf(filesOf?.id ?? null)}
            limits={props.files.limits}
            onClose={() => setFilesOf(null)}
            onAdd={async (file) => {
              if (filesOf) await props.files.add(filesOf.id, file);
            }}
            onRemove={props.files.remove}
          />}

          <ConfirmDialog
            open={deleting !== null}
            title="Delete this project?"
            confirmLabel="Delete project"
            onCancel={() => setDeleting(null)}
            onConfirm={() => {
              const project = deleting;
              if (!project) return;
              if (project.id === props.activeProjectId) props.onSelect(null);
              props.onDelete(project.id).then(
                (moved) =>
                  toast.success(
                    moved === 0 ? "Project deleted" : moved === 1 ? "Project deleted. Its chat is in your chat list." : `Project deleted. Its ${moved} chats are in your chat list.`,
                  ),
                () => toast.error("Could not delete the project. Check your connection and try again."),
              );
            }}
          >
            “{deleting?.name}”, its instructions and its files will be deleted for good. Its chats are not deleted: they move out
            of the project into your chat list.
          </ConfirmDialog>
        </>,
        document.body,
      )}
    </section>
  );
}

function RowButton({ label, onClick, danger = false, children }: { label: string; onClick: () => void; danger?: boolean; children: React.ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={label.split(" ")[0]}
      className={`inline-flex h-7 w-7 items-center justify-center rounded-md text-ink-500 hover:bg-ink-200 ${danger ? "hover:text-red-700" : "hover:text-ink-900"}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        {children}
      </svg>
    </button>
  );
}
