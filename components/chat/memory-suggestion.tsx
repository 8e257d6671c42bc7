"use client";

import { useState } from "react";
import { toast } from "@/components/ui/toaster";
import { AppError } from "@/lib/shared/errors";

/** A suggested memory (docs/issues.md #41), stored only on Save: it may come from a document or page the model read. */
export function MemorySuggestion(props: { text: string; onSave: (text: string) => Promise<void>; onDismiss: () => void }) {
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await props.onSave(props.text);
      toast.success("Saved to memory");
      props.onDismiss();
    } catch (e) {
      toast.error(`Not saved: ${e instanceof AppError ? e.message : "please check your connection and try again."}`);
    } finally {
      setSaving(false);
    }
  };
  return (
    <div role="group" aria-label="Suggested memory" className="mx-auto mb-2 flex w-full max-w-3xl flex-wrap items-center gap-2 px-4 text-sm text-ink-700 sm:px-6">
      <p className="min-w-0 flex-1 rounded-lg border border-ink-200 bg-ink-50 px-3 py-2">
        Remember: <span className="font-medium text-ink-900">{props.text}</span> ?
      </p>
      <button type="button" disabled={saving} onClick={() => void save()} className="rounded-lg bg-brand-600 px-3 py-1.5 text-xs font-semibold text-white hover:bg-brand-700 disabled:opacity-50">
        Save
      </button>
      <button type="button" disabled={saving} onClick={props.onDismiss} className="rounded-lg border border-ink-200 px-3 py-1.5 text-xs font-semibold text-ink-800 hover:bg-ink-100">
        Dismiss
      </button>
    </div>
  );
}
