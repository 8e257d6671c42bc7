"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { AssistantAvatar } from "@/components/message/assistant-avatar";
import { AssistantMessage } from "./assistant-message";
import { FileChip } from "@/components/message/file-chip";
import { Markdown } from "@/components/message/markdown";
import { ScrollToBottom } from "./scroll-to-bottom";
import { ReadingLine, SearchingLine } from "./sources";
import type { SearchProgress } from "@/lib/browser/chat/send-turn";
import { TypingIndicator } from "./typing-indicator";
import type { UiMessage } from "./types";
import { UserMessage } from "./user-message";

/** One message on screen with its place among its versions. */
export interface ShownMessage {
  id: string;
  message: UiMessage;
  versionIndex: number;
  versionCount: number;
}

interface MessageListProps {
  messages: ShownMessage[];
  /** The staged PDF, shown until it is sent (docs/product.md §4). */
  stagedName: string | null;
  stagedReading?: boolean;
  /** A data URL. */
  stagedThumbnail?: string;
  onRemoveStaged: () => void;
  /** "" while waiting for the first words. */
  streamingText: string | null;
  searching?: SearchProgress | null;
  /** The running device tool's line. */
  deviceTool?: string | null;
  busy: boolean;
  onEdit: (id: string, text: string) => void;
  onRegenerate: (id: string) => void;
  onStep: (id: string, step: number) => void;
}

/** Above this many messages only those near the viewport are rendered (docs/issues.md #9). */
const VIRTUALIZE_AFTER = 40;
const PINNED_PX = 80;
const INTENT_MS = 1000;

/** The conversation (docs/product.md §2); follows the bottom as text streams in unless the reader scrolled up. */
export function MessageList(props: MessageListProps) {
  const { messages, stagedName, stagedReading, stagedThumbnail, onRemoveStaged, streamingText, searching, deviceTool, busy } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const pinnedRef = useRef(true);
  // When the reader last wheeled, touched, pressed a key or grabbed the scrollbar in the list.
  const intentAt = useRef(-Infinity);
  const markIntent = useCallback(() => {
    intentAt.current = performance.now();
  }, []);
  const [pinned, setPinned] = useState(true);
  // Stable handlers, so memoized messages do not re-render when the page does.
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });
  const onEdit = useCallback((id: string, text: string) => latest.current.onEdit(id, text), []);
  const onRegenerate = useCallback((id: string) => latest.current.onRegenerate(id), []);
  const onStep = useCallback((id: string, step: number) => latest.current.onStep(id, step), []);

  // docs/product.md §2 hides a first system message; the server ignores client system messages anyway.
  const rows = messages.filter((m) => m.message.role !== "system");
  const virtual = rows.length > VIRTUALIZE_AFTER;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 160,
    overscan: 6,
    enabled: virtual,
    getItemKey: (i) => rows[i]?.id ?? i,
  });

  // At most once per frame: setting scrollTop after reading scrollHeight forces a layout.
  const frame = useRef<number | null>(null);
  const toBottom = useCallback(() => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      const el = scroller.current;
      if (el && pinnedRef.current) el.scrollTop = el.scrollHeight;
    });
  }, []);
  useEffect(() => () => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
  }, []);

  useEffect(() => {
    const el = content.current;
    if (!el) return;
    const observer = new ResizeObserver(() => {
      if (pinnedRef.current) toBottom();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [toBottom]);

  // A new turn or an opened chat: at once, before the first paint shows it anywhere but at its end.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && pinnedRef.current) el.scrollTop = el.scrollHeight;
  }, [messages, stagedName]);
  useEffect(() => {
    if (pinnedRef.current) toBottom();
  }, [streamingText, toBottom]);

  const lastId = rows.at(-1)?.id ?? null;
  const row = (m: ShownMessage) =>
    m.message.role === "assistant" ? (
      <AssistantMessage id={m.id} message={m.message} versionIndex={m.versionIndex} versionCount={m.versionCount} latest={m.id === lastId} busy={busy} onRegenerate={onRegenerate} onStep={onStep} />
    ) : (
      <UserMessage id={m.id} message={m.message} versionIndex={m.versionIndex} versionCount={m.versionCount} latest={m.id === lastId} busy={busy} onEdit={onEdit} onStep={onStep} />
    );

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        ref={scroller}
        data-testid="message-scroller"
        onWheel={markIntent}
        onTouchMove={markIntent}
        onKeyDown={markIntent}
        onPointerDown={markIntent}
        onScroll={(e) => {
          const el = e.currentTarget;
          const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < PINNED_PX;
          // Only the reader unpins: the virtualizer's corrections must not leave an opened chat short of its end.
          const now = atBottom || (performance.now() - intentAt.current > INTENT_MS ? pinnedRef.current : false);
          pinnedRef.current = now;
          if (now !== pinned) setPinned(now);
        }}
        className="flex-1 overflow-y-auto"
      >
        <div ref={content} className="mx-auto max-w-3xl px-4 py-6 sm:px-6">
          {virtual ? (
            <ol aria-label="Messages" className="relative" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((item) => (
                <li
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="absolute left-0 top-0 w-full pb-6"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  {row(rows[item.index]!)}
                </li>
              ))}
            </ol>
          ) : (
            <ol aria-label="Messages" className="flex flex-col">
              {rows.map((m) => (
                <li key={m.id} className="pb-6">
                  {row(m)}
                </li>
              ))}
            </ol>
          )}
          <div aria-live="polite">
            {stagedName && (
              <div className="flex justify-end pb-6" data-testid="staged-file" data-reading={stagedReading ? "true" : undefined}>
                <FileChip name={stagedName} onRemove={onRemoveStaged} reading={stagedReading} thumbnail={stagedThumbnail} />
              </div>
            )}
            {streamingText !== null && <StreamingAnswer text={streamingText} searching={searching ?? null} deviceTool={deviceTool ?? null} />}
          </div>
        </div>
      </div>
      {!pinned && (
        <ScrollToBottom
          onClick={() => {
            pinnedRef.current = true;
            setPinned(true);
            toBottom();
          }}
        />
      )}
    </div>
  );
}

/** The answer being streamed: the typing indicator until its first text. */
function StreamingAnswer({ text, searching, deviceTool }: { text: string; searching: SearchProgress | null; deviceTool: string | null }) {
  const line = deviceTool ? (
    <p role="status" data-testid="device-tool-running" className="text-xs text-ink-500">
      {deviceTool}
    </p>
  ) : (
    searching && ("page" in searching ? <ReadingLine page={searching.page} /> : <SearchingLine queries={searching.queries} engine={searching.engine} />)
  );
  return text === "" ? (
    <div className="flex gap-3">
      <AssistantAvatar />
      <div className="min-w-0 flex-1">
        {line}
        <TypingIndicator />
      </div>
    </div>
  ) : (
    <div className="flex gap-3" data-role="assistant" data-streaming="true">
      <AssistantAvatar />
      <div className="min-w-0 flex-1 pt-1">
        <Markdown text={text} />
        {line}
      </div>
    </div>
  );
}
