"use client";

import { useState } from "react";
import { buttonStyles, Dialog } from "@/components/ui/dialog";
import { serverMessage } from "@/lib/browser/api/client";
import { PROJECT_INSTRUCTIONS_MAX_CHARS, PROJECT_NAME_MAX_CHARS } from "@/lib/shared/projects/limits";
import type { PlainProject } from "@/lib/browser/vault/projects";

/** Make (`initial` null) or edit a project's name and instructions, encrypted in this browser. */
export function ProjectDialog(props: {
  open: boolean;
  initial: PlainProject | null;
  onClose: () => void;
  /** Throws AppError when it could not be stored (the dialog shows why). */
  onSave: (project: PlainProject) => Promise<void>;
}) {
  return (
    <Dialog open={props.open} onClose={props.onClose} title={props.initial ? "Edit project" : "New project"} actions={null}>
      {props.open && <ProjectForm key={props.initial?.name ?? ""} {...props} />}
    </Dialog>
  );
}

function ProjectForm({ initial, onClose, onSave }: { initial: PlainProject | null; onClose: () => void; onSave: (project: PlainProject) => Promise<void> }) {
  const [name, setName] = useState(initial?.name ?? "");
  const [instructions, setInstructions] = useState(initial?.instructions ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim() || busy) return;
    setBusy(true);
    setError(null);
    try {
      await onSave({ name, instructions });
      onClose();
    } catch (err) {
      setError(serverMessage(err) ?? "Could not save the project. Check your connection and try again.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3">
      <label className="flex flex-col gap-1 font-medium text-ink-800">
        Name
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={PROJECT_NAME_MAX_CHARS}
          required
          autoFocus
          placeholder="e.g. Trip to Japan"
          className="rounded-lg border border-ink-200 px-3 py-2 font-normal text-ink-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100"
        />
      </label>
      <label className="flex flex-col gap-1 font-medium text-ink-800">
        Instructions
        <textarea
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
          maxLength={PROJECT_INSTRUCTIONS_MAX_CHARS}
          rows={6}
          placeholder="How should the model answer in this project? e.g. Answer briefly, in British English."
          aria-describedby="project-instructions-help"
          className="resize-y rounded-lg border border-ink-200 px-3 py-2 font-normal text-ink-900 outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100"
        />
      </label>
      <p id="project-instructions-help" className="-mt-1 flex justify-between gap-3 text-xs text-ink-500">
        <span>Sent to the model at the start of every chat in this project. Encrypted with your key, like your chats.</span>
        <span className="shrink-0 tabular-nums">
          {instructions.length.toLocaleString("en-US")} / {PROJECT_INSTRUCTIONS_MAX_CHARS.toLocaleString("en-US")}
        </span>
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="mt-3 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button type="button" className={buttonStyles.secondary} onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className={buttonStyles.primary} disabled={!name.trim() || busy}>
          {initial ? "Save" : "Create project"}
        </button>
      </div>
    </form>
  );
}
