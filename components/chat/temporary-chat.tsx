"use client";

// Temporary chat: a signed-in user's chat that is never saved, even with Save history on.

/** The header's "Temporary chat" toggle. */
export function TemporaryChatButton({ on, onToggle }: { on: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-pressed={on}
      title={on ? "Leave the temporary chat" : "Start a chat that is not saved"}
      className={`inline-flex h-10 min-w-10 shrink-0 items-center justify-center gap-1.5 sm:h-9 sm:min-w-9 whitespace-nowrap rounded-lg px-2 text-sm font-medium hover:bg-ink-100 ${on ? "bg-amber-50 text-amber-900 ring-1 ring-amber-300" : "text-ink-600 hover:text-ink-900"}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" strokeDasharray={on ? undefined : "3 2.5"}>
        <circle cx="12" cy="12" r="8.5" />
        <path d="M12 7.5V12l3 2" strokeDasharray="none" />
      </svg>
      <span className="hidden @2xl:inline">Temporary chat</span>
      <span className="sr-only @2xl:hidden">Temporary chat</span>
    </button>
  );
}

/** The line shown above a temporary chat. */
export function TemporaryChatBanner() {
  return (
    <p role="status" data-testid="temporary-chat-banner" className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-center text-sm text-amber-900">
      <strong className="font-semibold">Temporary chat.</strong> It will not be saved, even with Save history on, and is gone when you leave it.
    </p>
  );
}
