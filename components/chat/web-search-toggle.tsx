"use client";

import { SEARCH_OVER_QUOTA_LINE } from "@/lib/shared/search/text";
import type { WebSearchState } from "./use-web-search";

/** The composer's "Search the web" toggle; its title says where queries and page reads go (docs/issues.md #51). */
export function WebSearchToggle({ state, busy }: { state: WebSearchState; busy: boolean }) {
  if (!state.available) return null;
  const where =
    `Your message is sent as a search query to ${state.engine}; the answer lists its sources. ` +
    `It also lets the model read pages from the results or links in your message: ${state.reader} fetches them, and the answer lists each page read.`;
  return (
    <div className="flex shrink-0 items-center">
      <button
        type="button"
        aria-label="Search the web"
        aria-pressed={state.on}
        aria-describedby={state.overQuota ? "web-search-quota" : undefined}
        title={state.overQuota ? SEARCH_OVER_QUOTA_LINE : state.on ? `Web search is on. ${where}` : `Search the web for this chat. ${where}`}
        disabled={busy || state.overQuota}
        onClick={state.toggle}
        data-testid="web-search-toggle"
        className={`inline-flex h-10 w-10 items-center justify-center rounded-xl disabled:opacity-40 ${
          state.on ? "bg-brand-100 text-brand-700 ring-1 ring-brand-300" : "text-ink-600 hover:bg-ink-100 hover:text-ink-900"
        }`}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
        </svg>
      </button>
      {state.overQuota && (
        <span id="web-search-quota" role="status" className="sr-only">
          {SEARCH_OVER_QUOTA_LINE}
        </span>
      )}
    </div>
  );
}
