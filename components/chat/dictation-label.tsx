"use client";

import { useDismiss } from "@/components/ui/use-dismiss";
import { useId, useRef, useState } from "react";
import type { ModelChoice } from "@/lib/shared/llm/models";
import { useDictationRoute } from "./dictate-button";

/**
 * Beside the model picker's privacy badge (docs/issues.md #52): where the chosen model's recordings go, named before
 * anything is recorded ("Voice: Groq", "Voice: in the enclave"); a click shows the Dictate button's full sentence.
 * A narrow header shows the microphone alone, and one under 24rem (a 360 px phone) nothing: the Dictate button's
 * title says it there. Nothing is shown where the server offers no dictation for the model.
 */
export function DictationLabel({ model }: { model: ModelChoice | undefined }) {
  const route = useDictationRoute(model);
  const [open, setOpen] = useState(false);
  const noteId = useId();
  const root = useRef<HTMLSpanElement>(null);

  useDismiss(open, root, setOpen);

  if (route.kind === "off") return null;
  return (
    <span ref={root} className="relative hidden @sm:inline-flex">
      <button
        type="button"
        data-testid="dictation-privacy-label"
        aria-label={route.short}
        aria-expanded={open}
        aria-controls={open ? noteId : undefined}
        title={route.sentence}
        onClick={() => setOpen((v) => !v)}
        className="inline-flex items-center gap-1 whitespace-nowrap rounded-full bg-ink-50 px-2 py-1 text-xs font-medium text-ink-700 ring-1 ring-ink-200 hover:bg-ink-100"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <rect x="9" y="3" width="6" height="11" rx="3" />
          <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
        </svg>
        <span className="hidden @2xl:inline">{route.short}</span>
      </button>
      {open && (
        <span
          id={noteId}
          role="note"
          data-testid="dictation-privacy-note"
          className="absolute left-0 top-full z-20 mt-1 w-64 max-w-[calc(100vw-2rem)] -translate-x-1/2 rounded-lg border border-ink-200 bg-white p-2.5 text-xs font-normal text-ink-700 shadow-lg @md:translate-x-0"
        >
          {route.sentence}
        </span>
      )}
    </span>
  );
}
