"use client";

import type { ReactNode } from "react";

/** Class for the small icon buttons under a message. */
export const ACTION_BUTTON =
  "inline-flex h-8 w-8 items-center justify-center rounded-md text-ink-600 hover:bg-ink-100 hover:text-ink-900 focus-visible:outline-2 focus-visible:outline-brand-600";

/** The actions under a message: on hover or focus, always on touch screens and for the newest message. */
export function MessageActions({ children, alwaysVisible, align }: { children: ReactNode; alwaysVisible: boolean; align: "start" | "end" }) {
  const reveal = alwaysVisible ? "" : "pointer-fine:opacity-0 pointer-fine:group-hover:opacity-100 pointer-fine:group-focus-within:opacity-100";
  return (
    <div
      data-testid="message-actions"
      className={`flex items-center gap-0.5 transition-opacity ${align === "end" ? "justify-end" : ""} ${reveal}`}
    >
      {children}
    </div>
  );
}

/** The regenerate icon button. */
export function RegenerateButton({ onClick, disabled }: { onClick: () => void; disabled: boolean }) {
  return (
    <button type="button" onClick={onClick} disabled={disabled} aria-label="Regenerate answer" title="Regenerate answer" className={`${ACTION_BUTTON} disabled:opacity-30`}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        <path d="M4 12a8 8 0 0 1 14-5.3M20 4v5h-5M20 12a8 8 0 0 1-14 5.3M4 20v-5h5" />
      </svg>
    </button>
  );
}
