"use client";

import { useDeferredValue, useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { ChatSearchHit, Segment } from "@/lib/browser/chat/search";
import type { SearchState } from "./use-chat-search";

interface ChatSearchProps {
  state: SearchState;
  /** Answered by the search worker. */
  search: (query: string, exclude: ReadonlySet<string>) => Promise<ChatSearchHit[]>;
  /** Not shown: their deletion can still be undone. */
  hidden: ReadonlySet<string>;
  onOpen: (chatId: string) => void;
  onClose: () => void;
}

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const count = new Intl.NumberFormat();

/** "Search chats" (docs/issues.md #9): a combobox over the chats decrypted in this browser, results best first. */
export function ChatSearch({ state, search, hidden, onOpen, onClose }: ChatSearchProps) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const deferred = useDeferredValue(query);
  const input = useRef<HTMLInputElement>(null);
  const [answer, setAnswer] = useState<{ query: string; hits: ChatSearchHit[] }>({ query: "", hits: [] });
  const hits = answer.hits;
  // Results follow `state.version` while the index loads; only the latest query's answer is shown.
  useEffect(() => {
    let current = true;
    void search(deferred, hidden).then((found) => {
      if (current) setAnswer({ query: deferred, hits: found });
    });
    return () => {
      current = false;
    };
  }, [search, deferred, hidden, state.version]);
  const current = Math.min(active, Math.max(0, hits.length - 1));

  useEffect(() => {
    input.current?.focus();
  }, []);

  useEffect(() => {
    document.getElementById(`search-hit-${current}`)?.scrollIntoView({ block: "nearest" });
  }, [current]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (hits.length) setActive((current + (e.key === "ArrowDown" ? 1 : hits.length - 1)) % hits.length);
    } else if (e.key === "Enter") {
      e.preventDefault();
      const hit = hits[current];
      if (hit) onOpen(hit.chat_id);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    }
  };

  const loading = state.status === "loading" || state.status === "idle";
  const progress =
    state.status === "error"
      ? "Some chats could not be loaded for search."
      : loading
        ? state.total
          ? `Decrypting your chats to search them… ${count.format(state.indexed)} of ${count.format(state.total)}`
          : "Loading your chats to search them…"
        : `${count.format(state.total)} ${state.total === 1 ? "chat" : "chats"} searched in this browser`;

  return (
    <div role="search" aria-label="Search chats" className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center gap-1 p-2">
        <div className="relative flex-1">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="pointer-events-none absolute left-2.5 top-1/2 h-4 w-4 -translate-y-1/2 text-ink-500" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="11" cy="11" r="7" />
            <path d="m20 20-3.5-3.5" />
          </svg>
          <input
            ref={input}
            type="search"
            role="combobox"
            aria-label="Search chats"
            aria-expanded={hits.length > 0}
            aria-controls="chat-search-results"
            aria-autocomplete="list"
            aria-activedescendant={hits.length ? `search-hit-${current}` : undefined}
            placeholder="Search chats"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
            autoComplete="off"
            enterKeyHint="search"
            className="block w-full rounded-lg border border-ink-200 bg-white py-2 pl-8 pr-2 text-sm text-ink-900 placeholder:text-ink-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
          />
        </div>
        <button
          type="button"
          onClick={onClose}
          className="rounded-lg px-2 py-2 text-sm font-medium text-ink-700 hover:bg-ink-100"
        >
          Close
        </button>
      </div>

      <p role="status" className="flex items-center gap-2 px-3 pb-1 text-xs text-ink-500" data-testid="search-progress">
        {/* Once the count is known, a determinate bar: a spinner's frames competed with the decrypting. */}
        {loading && !state.total && <span aria-hidden="true" className="h-3 w-3 rounded-full border-2 border-ink-300 border-t-brand-600 motion-safe:animate-spin" />}
        {loading && state.total > 0 && (
          <span aria-hidden="true" className="h-1 w-10 shrink-0 overflow-hidden rounded-full bg-ink-200">
            <span className="block h-full bg-brand-600" style={{ width: `${Math.round((100 * state.indexed) / state.total)}%` }} />
          </span>
        )}
        {progress}
      </p>

      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
        <ul id="chat-search-results" role="listbox" aria-label="Search results" className="flex flex-col gap-0.5">
          {hits.map((hit, i) => (
            <li
              key={hit.chat_id}
              id={`search-hit-${i}`}
              role="option"
              aria-selected={i === current}
              onClick={() => onOpen(hit.chat_id)}
              onMouseMove={() => setActive(i)}
              className={`cursor-pointer rounded-lg px-3 py-2 ${i === current ? "bg-white shadow-sm ring-1 ring-ink-200" : "hover:bg-ink-100"}`}
            >
              <span className="block truncate text-sm font-medium text-ink-900">
                <Highlighted segments={hit.title} />
              </span>
              {hit.snippet && (
                <span className="mt-0.5 line-clamp-2 block text-xs text-ink-600" data-testid="search-snippet">
                  <Highlighted segments={hit.snippet} />
                </span>
              )}
              <span className="mt-0.5 block text-xs text-ink-500">{when.format(new Date(hit.last_updated))}</span>
            </li>
          ))}
        </ul>
        {deferred.trim() !== "" && answer.query === deferred && hits.length === 0 && !loading && (
          <p className="px-3 py-3 text-sm text-ink-600">No chats match “{deferred.trim()}”.</p>
        )}
        {deferred.trim() === "" && (
          <p className="px-3 py-3 text-sm text-ink-600">Search the names and messages of your saved chats. They are decrypted only in this browser.</p>
        )}
      </div>
    </div>
  );
}

function Highlighted({ segments }: { segments: Segment[] }) {
  return segments.map((s, i) =>
    s.match ? (
      <mark key={i} className="rounded-sm bg-amber-200 px-0.5 font-semibold text-ink-950">
        {s.text}
      </mark>
    ) : (
      <span key={i}>{s.text}</span>
    ),
  );
}
