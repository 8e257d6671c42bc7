"use client";

import { useEffect, useRef, useState } from "react";

/**
 * Inline editor for a sent user message (edit-and-resend): Enter or "Send" resends, Shift+Enter
 * adds a line, Escape or "Cancel" leaves the message as it was.
 */
export function MessageEditor({ initial, onSave, onCancel }: { initial: string; onSave: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const canSave = text.trim() !== "";
  return (
    <form
      className="w-full max-w-[85%] rounded-2xl border border-ink-200 bg-white p-2 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSave) onSave(text.trim());
      }}
    >
      <label className="sr-only" htmlFor="edit-message">
        Edit message
      </label>
      <textarea
        id="edit-message"
        ref={area}
        value={text}
        rows={Math.min(8, Math.max(2, text.split("\n").length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") onCancel();
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            if (canSave) onSave(text.trim());
          }
        }}
        className="w-full resize-none bg-transparent px-2 py-1 text-base text-ink-900 focus:outline-none"
      />
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onCancel} className="h-8 rounded-lg px-3 text-sm font-medium text-ink-700 hover:bg-ink-100">
          Cancel
        </button>
        <button type="submit" disabled={!canSave} className="h-8 rounded-lg bg-brand-600 px-3 text-sm font-semibold text-white hover:bg-brand-700 disabled:bg-ink-200 disabled:text-ink-500">
          Send
        </button>
      </div>
    </form>
  );
}
