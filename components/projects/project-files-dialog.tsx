"use client";

import { useRef, useState } from "react";
import { buttonStyles, Dialog } from "@/components/ui/dialog";
import { serverMessage } from "@/lib/browser/api/client";
import { isFileError } from "@/lib/browser/files/errors";
import { ACCEPT } from "@/lib/browser/files/kinds";
import { isPdfError } from "@/lib/shared/pdf/errors";
import { formatLimit, PROJECT_FILES_LIMIT_BYTES } from "@/lib/shared/projects/knowledge-limits";
import type { ProjectFileItem } from "@/lib/browser/projects/use-project-files";
import { formatKb, passageCount } from "./file-labels";


function addFailure(error: unknown): string {
  if (isFileError(error) || isPdfError(error)) return error.message;
  return serverMessage(error) ?? "Could not add the file. Check your connection and try again.";
}

/** A project's Files (docs/issues.md #41), read and encrypted in this browser, with the space used. */
export function ProjectFilesDialog(props: {
  open: boolean;
  projectName: string;
  files: ProjectFileItem[];
  limits: { limitBytes: number; maxFiles: number } | null;
  onClose: () => void;
  onAdd: (file: File) => Promise<void>;
  onRemove: (fileId: string) => Promise<void>;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const used = props.files.reduce((n, f) => n + f.bytes, 0);
  const limit = props.limits?.limitBytes ?? null;

  const add = async (list: FileList | null) => {
    const file = list?.[0];
    if (!file || busy) return;
    setBusy(true);
    setError(null);
    try {
      await props.onAdd(file);
    } catch (err) {
      setError(addFailure(err));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };
  const remove = (id: string) => props.onRemove(id).catch(() => setError("Could not delete the file. Check your connection and try again."));

  return (
    <Dialog open={props.open} onClose={props.onClose} title={`Files of ${props.projectName}`} actions={null}>
      <div className="flex flex-col gap-3" data-testid="project-files">
        <p className="text-sm text-ink-600">
          Each message in this project is sent the passages of these files that best match it, and the answer lists them as Sources. Files are read and
          encrypted in this browser; Hush stores only ciphertext. Their text is given to the model as reference material, never as instructions.
        </p>
        {props.files.length > 0 ? (
          <ul aria-label="Project files" className="flex flex-col divide-y divide-ink-100 rounded-lg border border-ink-200">
            {props.files.map((f) => (
              <li key={f.id} className="flex items-center gap-3 px-3 py-2 text-sm">
                <span className="flex min-w-0 flex-1 flex-col sm:flex-row sm:items-center sm:gap-3">
                  <span className="min-w-0 truncate font-medium text-ink-900 sm:flex-1" title={f.name}>
                    {f.name}
                  </span>
                  <span className="shrink-0 text-xs tabular-nums text-ink-500 sm:text-sm">
                    {passageCount(f.passages.length)} · {formatKb(f.bytes)}
                  </span>
                </span>
                <button type="button" onClick={() => void remove(f.id)} aria-label={`Delete file ${f.name}`} className="shrink-0 rounded-md px-2 py-1 text-xs font-medium text-red-700 hover:bg-red-50">
                  Delete
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="rounded-lg border border-dashed border-ink-200 px-3 py-4 text-center text-sm text-ink-500">No files yet.</p>
        )}
        <p className="text-xs text-ink-500" data-testid="project-files-usage">
          {formatKb(used)} used{limit !== null ? ` of ${formatLimit(limit)}` : ""} in this project. A project&apos;s files can take {formatLimit(PROJECT_FILES_LIMIT_BYTES.Free)} on
          Free and {formatLimit(PROJECT_FILES_LIMIT_BYTES.Pro)} on Pro{props.limits ? `, at most ${props.limits.maxFiles} files` : ""}.
        </p>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <input ref={input} type="file" accept={ACCEPT} className="sr-only" aria-label="Add a file to the project" onChange={(e) => void add(e.target.files)} tabIndex={-1} />
        <div className="mt-1 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" className={buttonStyles.secondary} onClick={props.onClose}>
            Close
          </button>
          <button type="button" className={buttonStyles.primary} disabled={busy} onClick={() => input.current?.click()}>
            {busy ? "Reading and encrypting…" : "Add file"}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
