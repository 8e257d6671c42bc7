"use client";

import { useEffect, useLayoutEffect, useRef, type ClipboardEvent, type KeyboardEvent, type ReactNode } from "react";
import { acceptFor } from "@/lib/browser/files/kinds";
import { withTranscript } from "@/lib/browser/voice/transcribe";
import type { ModelChoice } from "@/lib/shared/llm/models";
import { DictateButton } from "./dictate-button";
import { useDictationRoute } from "./use-dictation-route";
import { useDictationUsedUp } from "./use-dictation-seconds";
import { useVoiceMode, type LatestAnswer } from "./use-voice-mode";

interface ComposerProps {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  onPickFile: (file: File) => void;
  busy: boolean;
  disabled?: boolean;
  readsImages?: boolean;
  /** Beside the attach button. */
  tools?: ReactNode;
  /** Absent: no Dictate button. */
  model?: ModelChoice;
  /** Voice mode reads it aloud once a new one arrives. */
  latestAnswer?: LatestAnswer | null;
}

const VOICE_STATUS = {
  listening: "Voice mode: listening. Pause speaking or click the red button to send.",
  answering: "Voice mode: waiting for the answer…",
  speaking: "Voice mode: reading the answer aloud with a voice on this device…",
} as const;

const MAX_HEIGHT_PX = 200;

/** The message input (docs/product.md §2, §5). Dictate adds a transcript for the user to send; voice mode sends it. */
export function Composer({ value, onChange, onSend, onStop, onPickFile, busy, disabled, readsImages = false, tools, model, latestAnswer = null }: ComposerProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  // Typing may go on while a transcript is made.
  const latest = useRef(value);
  useLayoutEffect(() => {
    latest.current = value;
  }, [value]);
  const canSend = value.trim() !== "" && !busy && !disabled;
  const route = useDictationRoute(model);
  const dictation = route.kind !== "off";
  const [usedUp, setUsedUp] = useDictationUsedUp(model !== undefined);
  const overQuota = route.kind === "device" ? null : usedUp;
  const voice = useVoiceMode({
    busy,
    latestAnswer,
    sendTranscript: (text) => {
      onChange(withTranscript(latest.current, text));
      onSend();
    },
  });

  // Not on a phone, which would pop its keyboard up.
  useEffect(() => {
    if (window.matchMedia("(min-width: 768px) and (pointer: fine)").matches) textarea.current?.focus();
  }, []);

  // Where CSS can (field-sizing), the browser fits the text in its own layout pass, without a forced layout.
  useLayoutEffect(() => {
    const el = textarea.current;
    if (!el || CSS.supports("field-sizing", "content")) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [value]);

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (canSend) onSend();
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    e.preventDefault();
    const text = e.clipboardData.getData("text/plain");
    const el = e.currentTarget;
    const next = el.value.slice(0, el.selectionStart) + text + el.value.slice(el.selectionEnd);
    const caret = el.selectionStart + text.length;
    onChange(next);
    requestAnimationFrame(() => el.setSelectionRange(caret, caret));
  };

  return (
    <form
      className="@container mx-auto w-full max-w-3xl px-4 pb-2 sm:px-6"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSend) onSend();
      }}
    >
      {voice.on ? (
        <div className="mb-2 flex items-center justify-between gap-2 rounded-xl bg-brand-50 px-3 py-1.5 text-sm text-brand-900 ring-1 ring-brand-200" data-testid="voice-mode-status">
          <span role="status">{voice.state.phase === "off" ? "" : VOICE_STATUS[voice.state.phase]}</span>
          <button type="button" onClick={voice.leave} className="shrink-0 font-medium underline">
            Leave voice mode
            <span className="sr-only"> (Escape)</span>
          </button>
        </div>
      ) : null}
      {voice.on && voice.note && (
        <p role="status" data-testid="voice-mode-note" className="mb-2 px-1 text-xs text-ink-600">
          {voice.note}
        </p>
      )}
      {/* Narrow, the buttons wrap under the text; the focus order stays that of one row. */}
      <div className="relative flex flex-wrap items-end gap-2 @lg:flex-nowrap rounded-2xl border border-ink-200 bg-white p-2 shadow-sm focus-within:border-brand-400 focus-within:ring-2 focus-within:ring-brand-100">
        <input
          ref={fileInput}
          type="file"
          accept={acceptFor(readsImages)}
          className="hidden"
          aria-label="PDF to attach"
          tabIndex={-1}
          data-testid="file-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) onPickFile(file);
            e.target.value = "";
          }}
        />
        <button
          type="button"
          onClick={() => fileInput.current?.click()}
          disabled={busy || disabled}
          aria-label="Attach a file"
          title={readsImages ? "Attach a file: PDF, Word, text, Markdown, CSV, JSON, code or image" : "Attach a file: PDF, Word, text, Markdown, CSV, JSON or code"}
          className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-xl text-ink-600 hover:bg-ink-100 hover:text-ink-900 disabled:opacity-40"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
            <path d="M21.4 11.1l-8.5 8.5a5.5 5.5 0 0 1-7.8-7.8l8.5-8.5a3.7 3.7 0 0 1 5.2 5.2l-8.5 8.5a1.8 1.8 0 0 1-2.6-2.6l7.8-7.8" />
          </svg>
        </button>
        {tools}
        {model && (
          <>
            <DictateButton
              model={model}
              disabled={disabled || (voice.on && voice.state.phase !== "listening")}
              listen={voice.state.phase === "listening"}
              onNoTranscript={voice.on ? voice.leave : undefined}
              overQuota={usedUp}
              onOverQuota={setUsedUp}
              onTranscript={(text) => {
                if (voice.state.phase === "listening") return voice.onTranscript(text);
                onChange(withTranscript(latest.current, text));
                textarea.current?.focus();
              }}
            />
            <button
              type="button"
              onClick={voice.toggle}
              // Its transcript could not be sent until the answer ends.
              disabled={disabled || (!voice.on && (busy || !dictation || overQuota !== null))}
              aria-pressed={voice.on}
              aria-label="Voice mode"
              title={
                voice.on
                  ? "Leave voice mode (Escape)"
                  : overQuota
                    ? overQuota
                    : "Voice mode: speak, pause to send, and hear the answer read by a voice on this device. Your recording goes where Dictate says."
              }
              data-testid="voice-mode-toggle"
              className={`inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-xl disabled:opacity-40 ${
                voice.on ? "bg-brand-600 text-white hover:bg-brand-700" : "text-ink-600 hover:bg-ink-100 hover:text-ink-900"
              }`}
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
                <path d="M4 10v4M8 6v12M12 3v18M16 7v10M20 10v4" />
              </svg>
            </button>
          </>
        )}
        <label htmlFor="chat-input" className="sr-only">
          Message
        </label>
        <textarea
          id="chat-input"
          ref={textarea}
          rows={1}
          value={value}
          placeholder="Message GPT"
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          disabled={disabled}
          className="order-first max-h-[200px] min-h-10 w-full min-w-0 resize-none @lg:order-none @lg:w-auto @lg:flex-1 bg-transparent [field-sizing:content] px-1 py-2 text-base text-ink-900 placeholder:text-ink-400 focus:outline-none"
        />
        {busy ? (
          <button
            type="button"
            onClick={onStop}
            aria-label="Stop generating"
            className="ml-auto inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-ink-900 text-white hover:bg-ink-700"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor">
              <rect x="6" y="6" width="12" height="12" rx="2" />
            </svg>
          </button>
        ) : (
          <button
            type="submit"
            disabled={!canSend}
            aria-label="Send message"
            className="ml-auto inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-brand-600 text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-ink-100 disabled:text-ink-400"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
              <path d="M12 19V5M5 12l7-7 7 7" />
            </svg>
          </button>
        )}
      </div>
    </form>
  );
}
