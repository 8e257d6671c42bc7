"use client";

import { useEffect, useRef } from "react";
import { AssistantAvatar } from "./assistant-avatar";
import { FileChip } from "./file-chip";
import { Markdown } from "./markdown";
import { TypingIndicator } from "./typing-indicator";
import type { UiMessage } from "./types";

interface MessageListProps {
  messages: UiMessage[];
  /** The staged PDF, shown as a removable pseudo-message until it is sent (spec §4). */
  stagedName: string | null;
  onRemoveStaged: () => void;
  /** Text of the answer streaming in, or "" while waiting for its first words. */
  streamingText: string | null;
}

/**
 * The conversation (spec §2): user messages on the right, assistant messages with an avatar, a hidden
 * system message, the staged file, and the typing indicator or the streaming answer.
 * Follows the bottom as text streams in unless the reader has scrolled up.
 */
export function MessageList({ messages, stagedName, onRemoveStaged, streamingText }: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  useEffect(() => {
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [messages, streamingText, stagedName]);

  // Spec §2 hides a first system message; the server ignores client system messages anyway.
  const visible = messages.filter((m) => m.role !== "system");

  return (
    <div
      ref={scroller}
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
      }}
      className="flex-1 overflow-y-auto"
    >
      <ol aria-label="Messages" aria-live="polite" className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-6 sm:px-6">
        {visible.map((m, i) => (
          <li key={i}>{m.role === "assistant" ? <AssistantMessage text={m.content} /> : <UserMessage message={m} />}</li>
        ))}
        {stagedName && (
          <li className="flex justify-end" data-testid="staged-file">
            <FileChip name={stagedName} onRemove={onRemoveStaged} />
          </li>
        )}
        {streamingText !== null && (
          <li>
            {streamingText === "" ? (
              <div className="flex gap-3">
                <AssistantAvatar />
                <TypingIndicator />
              </div>
            ) : (
              <AssistantMessage text={streamingText} />
            )}
          </li>
        )}
      </ol>
    </div>
  );
}

function AssistantMessage({ text }: { text: string }) {
  return (
    <div className="flex gap-3" data-role="assistant">
      <AssistantAvatar />
      <div className="min-w-0 flex-1 pt-1">
        <Markdown text={text} />
      </div>
    </div>
  );
}

function UserMessage({ message }: { message: UiMessage }) {
  return (
    <div className="flex flex-col items-end gap-2" data-role="user">
      {message.attachmentName && <FileChip name={message.attachmentName} />}
      <div className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl rounded-br-md bg-ink-100 px-4 py-2.5 text-ink-900">
        {message.content}
      </div>
      {message.notice && <p className="max-w-[85%] text-right text-xs text-amber-700">{message.notice}</p>}
    </div>
  );
}
