"use client";

/** "2 / 2" with previous/next arrows between the versions of one message. */
export function VersionSwitcher({ index, count, onStep, what }: { index: number; count: number; onStep: (step: number) => void; what: string }) {
  if (count < 2) return null;
  const arrow = "inline-flex h-7 w-7 items-center justify-center rounded-md text-ink-600 hover:bg-ink-100 hover:text-ink-900 disabled:opacity-30";
  return (
    <div className="inline-flex items-center text-xs tabular-nums text-ink-600" data-testid="version-switcher">
      <button type="button" className={arrow} disabled={index <= 1} onClick={() => onStep(-1)} aria-label={`Previous ${what}`}>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round"><path d="M15 6l-6 6 6 6" /></svg>
      </button>
      <span aria-live="polite">
        {index} / {count}
      </span>
      <button type="button" className={arrow} disabled={index >= count} onClick={() => onStep(1)} aria-label={`Next ${what}`}>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round"><path d="M9 6l6 6-6 6" /></svg>
      </button>
    </div>
  );
}
