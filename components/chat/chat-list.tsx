"use client";

import { useMemo, useRef, useState, type KeyboardEvent } from "react";
import { groupChatsByDate } from "@/lib/browser/chat/groups";
import { CHAT_TITLE_MAX_CHARS } from "@/lib/shared/chat/title-limit";
import type { HistoryEntry } from "./use-chat-history";

interface ChatListProps {
  chats: HistoryEntry[];
  activeChatId: string | null;
  onPick: (chatId: string) => void;
  onAskDelete: (entry: HistoryEntry) => void;
  /** Resolves false when the name could not be stored. */
  onRename: (chatId: string, title: string) => Promise<boolean>;
}

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The sidebar's saved chats in date groups (docs/product.md §2), renamed in place (pencil or F2). */
export function ChatList({ chats, activeChatId, onPick, onAskDelete, onRename }: ChatListProps) {
  const [editing, setEditing] = useState<string | null>(null);
  // Grouped against the time the list last changed.
  const groups = useMemo(() => groupChatsByDate(chats, new Date()), [chats]);

  return (
    <div className="flex flex-col gap-3">
      {groups.map((group) => (
        <section key={group.label} aria-label={group.label}>
          <h2 className="px-3 pb-1 text-xs font-semibold text-ink-500" data-testid="chat-group">
            {group.label}
          </h2>
          <ul className="flex flex-col gap-0.5">
            {group.chats.map((c) =>
              editing === c.chat_id ? (
                <li key={c.chat_id}>
                  <RenameField
                    entry={c}
                    onDone={(title) => {
                      setEditing(null);
                      // Focus goes back to the chat, for the next keyboard step.
                      requestAnimationFrame(() => document.getElementById(`chat-${c.chat_id}`)?.focus());
                      if (title !== null && title !== (c.display_name ?? "")) void onRename(c.chat_id, title);
                    }}
                  />
                </li>
              ) : (
                <li key={c.chat_id} className="group relative">
                  <button
                    type="button"
                    id={`chat-${c.chat_id}`}
                    onClick={() => onPick(c.chat_id)}
                    onKeyDown={(e) => {
                      if (e.key === "F2") {
                        e.preventDefault();
                        setEditing(c.chat_id);
                      }
                    }}
                    aria-current={c.chat_id === activeChatId ? "page" : undefined}
                    aria-keyshortcuts="F2"
                    className={`block w-full rounded-lg px-3 py-2 pr-16 text-left hover:bg-ink-100 ${c.chat_id === activeChatId ? "bg-white shadow-sm ring-1 ring-ink-200" : ""}`}
                  >
                    <span className="block truncate text-sm font-medium text-ink-900">{c.display_name || "Untitled Chat"}</span>
                    <span className="block text-xs text-ink-500">{when.format(new Date(c.last_updated))}</span>
                  </button>
                  <div className="absolute right-1.5 top-1/2 flex -translate-y-1/2 gap-0.5 opacity-100 focus-within:opacity-100 md:opacity-0 md:group-hover:opacity-100">
                    <RowButton label={`Rename ${c.display_name || "Untitled Chat"}`} onClick={() => setEditing(c.chat_id)} danger={false}>
                      <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
                    </RowButton>
                    <RowButton label={`Delete ${c.display_name || "Untitled Chat"}`} onClick={() => onAskDelete(c)} danger>
                      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
                    </RowButton>
                  </div>
                </li>
              ),
            )}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** Enter or blur saves (null when cancelled or left empty), Escape cancels. */
function RenameField({ entry, onDone }: { entry: HistoryEntry; onDone: (title: string | null) => void }) {
  const done = useRef(false);
  const finish = (title: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(title);
  };
  const save = (value: string) => {
    const title = value.replace(/\s+/g, " ").trim();
    finish(title === "" ? null : title);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      save(e.currentTarget.value);
    } else if (e.key === "Escape") {
      // Escape here cancels the rename only: not the page's shortcuts (stop generating).
      e.preventDefault();
      e.stopPropagation();
      finish(null);
    }
  };
  return (
    <div className="rounded-lg bg-white px-2 py-1.5 shadow-sm ring-2 ring-brand-600">
      <input
        aria-label="Chat name"
        defaultValue={entry.display_name ?? ""}
        placeholder="Untitled Chat"
        maxLength={CHAT_TITLE_MAX_CHARS}
        autoFocus
        onFocus={(e) => e.currentTarget.select()}
        onKeyDown={onKeyDown}
        onBlur={(e) => save(e.currentTarget.value)}
        enterKeyHint="done"
        className="block w-full bg-transparent px-1 py-1 text-sm font-medium text-ink-900 outline-none"
      />
      <p className="hidden px-1 text-xs text-ink-500 md:block">Enter to save · Esc to cancel</p>
    </div>
  );
}

function RowButton({ label, onClick, danger, children }: { label: string; onClick: () => void; danger: boolean; children: React.ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={label.split(" ")[0]}
      className={`inline-flex h-7 w-7 items-center justify-center rounded-md text-ink-500 hover:bg-ink-200 ${danger ? "hover:text-red-700" : "hover:text-ink-900"}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        {children}
      </svg>
    </button>
  );
}
