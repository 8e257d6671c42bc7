"use client";

import type { RunCodeState } from "./use-conversation";

/** The composer's "Run code" toggle (docs/issues.md #51); its title says where code runs and what leaves the device. */
export function RunCodeToggle({ state, busy }: { state: RunCodeState; busy: boolean }) {
  if (!state.available) return null;
  const where = "The model may run Python in this browser, with the files of this chat; only what the code prints goes back to the model.";
  return (
    <button
      type="button"
      aria-label="Run code"
      aria-pressed={state.on}
      title={state.on ? `Run code is on. ${where}` : `Run code on this device for this chat. ${where}`}
      disabled={busy}
      onClick={state.toggle}
      data-testid="run-code-toggle"
      className={`inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-xl disabled:opacity-40 ${
        state.on ? "bg-brand-100 text-brand-700 ring-1 ring-brand-300" : "text-ink-600 hover:bg-ink-100 hover:text-ink-900"
      }`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        <path d="m8 7-5 5 5 5M16 7l5 5-5 5M13.5 5l-3 14" />
      </svg>
    </button>
  );
}
