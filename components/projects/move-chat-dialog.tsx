"use client";

import { useState } from "react";
import { buttonStyles, Dialog } from "@/components/ui/dialog";
import type { Project } from "@/lib/browser/projects/use-projects";

/** "Move to project" for the open saved chat; its messages stay as they are. */
export function MoveChatDialog(props: {
  open: boolean;
  projects: Project[];
  current: string | null;
  onClose: () => void;
  onMove: (projectId: string | null) => void;
}) {
  return (
    <Dialog open={props.open} onClose={props.onClose} title="Move chat to a project" actions={null}>
      {props.open && <MoveForm {...props} />}
    </Dialog>
  );
}

function MoveForm({ projects, current, onClose, onMove }: { projects: Project[]; current: string | null; onClose: () => void; onMove: (projectId: string | null) => void }) {
  const [choice, setChoice] = useState<string>(current ?? "");
  const options = [{ id: "", name: "No project" }, ...projects];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onClose();
        if (choice !== (current ?? "")) onMove(choice === "" ? null : choice);
      }}
    >
      <fieldset className="flex max-h-72 flex-col gap-1 overflow-y-auto">
        <legend className="sr-only">Project</legend>
        {options.map((o) => (
          <label key={o.id || "none"} className="flex cursor-pointer items-center gap-2 rounded-lg px-2 py-2 hover:bg-ink-50">
            <input type="radio" name="project" value={o.id} checked={choice === o.id} onChange={() => setChoice(o.id)} className="accent-brand-600" />
            <span className={`truncate ${o.id === "" ? "text-ink-600" : "text-ink-900"}`}>{o.name}</span>
          </label>
        ))}
      </fieldset>
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button type="button" className={buttonStyles.secondary} onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className={buttonStyles.primary}>
          Move
        </button>
      </div>
    </form>
  );
}
