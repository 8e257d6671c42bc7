"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useConfidential } from "@/components/confidential/confidential-context";
import { serverMessage } from "@/lib/browser/api/client";
import { dictationLanguage, startOnDevice } from "@/lib/browser/voice/on-device";
import { startRecording, type RecordedAudio } from "@/lib/browser/voice/recorder";
import { transcribeStandard } from "@/lib/browser/voice/transcribe";
import { STT_QUOTA_MESSAGE } from "@/lib/shared/audio/messages";
import { AppError, isAppError } from "@/lib/shared/errors";
import type { ModelChoice } from "@/lib/shared/llm/models";
import { silenceDetector } from "@/lib/browser/voice/voice-mode";
import { useDictationConfig } from "./dictation-context";
import { useDictationRoute } from "./use-dictation-route";

interface DictateButtonProps {
  model: ModelChoice | undefined;
  disabled?: boolean;
  /** Sent only in voice mode. */
  onTranscript: (text: string) => void;
  /** Voice mode: record by itself while true, and stop at a silence after speech. */
  listen?: boolean;
  onNoTranscript?: () => void;
  /** The sentence saying the day's dictation seconds are used up, else null. */
  overQuota?: string | null;
  onOverQuota?: (message: string) => void;
}

type Phase = "idle" | "starting" | "recording" | "transcribing";

interface Take {
  level(): number;
  elapsedMs(): number;
  finish(): Promise<string>;
  cancel(): void;
}

function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The composer's "Dictate" button; its tooltip says where the audio goes before anything is recorded. */
export function DictateButton({ model, disabled, onTranscript, listen = false, onNoTranscript, overQuota: usedUp = null, onOverQuota }: DictateButtonProps) {
  const config = useDictationConfig();
  const confidential = useConfidential().config;
  const [phase, setPhase] = useState<Phase>("idle");
  const [elapsed, setElapsed] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const recording = useRef<Take | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  const meter = useRef<HTMLSpanElement>(null);

  const route = useDictationRoute(model);
  const onDevice = route.kind === "device";
  const isConfidential = route.kind === "enclave" && confidential !== null;
  const available = route.kind !== "off";
  // The device's recognition counts no seconds.
  const overQuota = onDevice ? null : usedUp;
  const title = overQuota ?? route.sentence;

  const transcribe = useCallback(
    async (audio: RecordedAudio): Promise<string> => {
      const controller = new AbortController();
      inFlight.current = controller;
      try {
        if (isConfidential) {
          const { transcribeConfidential } = await import("@/lib/browser/voice/confidential");
          return await transcribeConfidential(audio, model!.code, confidential, { timeoutMs: config.timeoutMs, signal: controller.signal });
        }
        return await transcribeStandard(audio, model!.code, { timeoutMs: config.timeoutMs, signal: controller.signal });
      } finally {
        inFlight.current = null;
      }
    },
    [isConfidential, model, confidential, config.timeoutMs],
  );

  const fail = useCallback((error: unknown) => {
    onNoTranscript?.();
    if (error instanceof DOMException && error.name === "AbortError") return;
    if (error instanceof AppError && error.status === 429 && error.message === STT_QUOTA_MESSAGE) onOverQuota?.(error.message);
    const text = isAppError(error, "bad_request:recording") || isAppError(error, "timeout:stt") ? error.message : serverMessage(error);
    setMessage(text ?? "The recording could not be transcribed. Please try again, or type your message.");
  }, [onNoTranscript, onOverQuota]);

  const stop = useCallback(async () => {
    const current = recording.current;
    if (!current) return;
    recording.current = null;
    setPhase("transcribing");
    try {
      const text = await current.finish();
      if (text.trim()) onTranscript(text);
      else {
        onNoTranscript?.();
        setMessage("No speech was heard in the recording.");
      }
    } catch (error) {
      fail(error);
    } finally {
      setPhase("idle");
    }
  }, [onTranscript, onNoTranscript, fail]);
  // The device's recognition may end by itself: what it heard lands as if the user had stopped.
  const stopNow = useRef(stop);
  useEffect(() => {
    stopNow.current = stop;
  }, [stop]);

  const cancel = useCallback(() => {
    recording.current?.cancel();
    recording.current = null;
    inFlight.current?.abort();
    setPhase("idle");
  }, []);

  const start = useCallback(async () => {
    setMessage(null);
    setPhase("starting");
    try {
      if (onDevice) {
        const recognition = await startOnDevice(dictationLanguage(), () => void stopNow.current());
        recording.current = { level: recognition.level, elapsedMs: recognition.elapsedMs, finish: recognition.stop, cancel: recognition.cancel };
      } else {
        const audio = await startRecording();
        recording.current = { level: audio.level, elapsedMs: audio.elapsedMs, finish: async () => transcribe(await audio.stop()), cancel: audio.cancel };
      }
      setElapsed(0);
      setPhase("recording");
    } catch (error) {
      setPhase("idle");
      fail(error);
    }
  }, [fail, onDevice, transcribe]);

  const blocked = !available || overQuota !== null || disabled === true;
  useEffect(() => {
    if (!listen || phase !== "idle") return;
    // Once only under StrictMode's second mount: the cleanup clears it.
    const timer = setTimeout(() => (blocked ? onNoTranscript?.() : void start()), 0);
    return () => clearTimeout(timer);
  }, [listen, phase, blocked, start, onNoTranscript]);
  // The one click that leaves voice mode must not send the recording.
  const wasListening = useRef(listen);
  useEffect(() => {
    if (wasListening.current && !listen && recording.current) cancel();
    wasListening.current = listen;
  }, [listen, cancel]);

  // The meter is written straight to the DOM each frame.
  useEffect(() => {
    if (phase !== "recording") return;
    let frame = 0;
    const silence = listen ? silenceDetector() : null;
    const tick = () => {
      const current = recording.current;
      if (!current) return;
      const level = current.level();
      if (meter.current) meter.current.style.transform = `scaleX(${level.toFixed(3)})`;
      if (silence?.(level, performance.now())) return void stop();
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    const timer = setInterval(() => {
      const seconds = (recording.current?.elapsedMs() ?? 0) / 1000;
      setElapsed(seconds);
      if (seconds >= config.maxSeconds) void stop();
    }, 250);
    return () => {
      cancelAnimationFrame(frame);
      clearInterval(timer);
    };
  }, [phase, config.maxSeconds, stop, listen]);

  // Before the chat's own shortcuts see Escape.
  useEffect(() => {
    if (phase === "idle") return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      event.stopPropagation();
      cancel();
      onNoTranscript?.();
    };
    document.addEventListener("keydown", onKey, true);
    return () => document.removeEventListener("keydown", onKey, true);
  }, [phase, cancel, onNoTranscript]);

  useEffect(() => () => cancel(), [cancel]);

  const recordingNow = phase === "recording";
  return (
    <>
      <button
        type="button"
        onClick={() => (recordingNow ? void stop() : phase === "idle" ? void start() : undefined)}
        disabled={!available || overQuota !== null || (disabled && !recordingNow) || phase === "starting" || phase === "transcribing"}
        aria-label={recordingNow ? (listen ? "Stop and send" : "Stop dictation") : "Dictate"}
        aria-pressed={recordingNow}
        title={recordingNow ? (listen ? "Click (or pause speaking) to send; Escape leaves voice mode." : "Click to stop and transcribe; Escape cancels.") : title}
        data-testid="dictate-button"
        className={`inline-flex h-10 shrink-0 items-center justify-center gap-1.5 rounded-xl sm:gap-2 disabled:opacity-40 ${
          recordingNow ? "bg-red-600 px-2 text-white hover:bg-red-700 sm:px-3" : "w-10 text-ink-600 hover:bg-ink-100 hover:text-ink-900"
        }`}
      >
        {recordingNow ? (
          <>
            <span aria-hidden="true" className="h-2.5 w-2.5 animate-pulse rounded-full bg-white" />
            <span className="font-mono text-sm tabular-nums" data-testid="dictate-timer">
              {clock(elapsed)}
              <span className="sr-only"> of {clock(config.maxSeconds)}</span>
            </span>
            <span aria-hidden="true" className="relative h-1.5 w-5 overflow-hidden rounded-full bg-red-800 sm:w-10" data-testid="dictate-level">
              <span ref={meter} className="absolute inset-0 origin-left scale-x-0 rounded-full bg-white transition-transform duration-75" />
            </span>
          </>
        ) : phase === "transcribing" || phase === "starting" ? (
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5 animate-spin" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M12 3a9 9 0 1 0 9 9" strokeLinecap="round" />
          </svg>
        ) : (
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
            <rect x="9" y="3" width="6" height="11" rx="3" />
            <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
          </svg>
        )}
      </button>
      <span role="status" className="sr-only">
        {recordingNow
          ? listen
            ? "Listening. Click Stop and send, or pause speaking, to send; press Escape to leave voice mode."
            : "Recording. Click Stop dictation to transcribe, or press Escape to cancel."
          : phase === "transcribing"
            ? "Transcribing…"
            : ""}
      </span>
      {message && (
        <p role="alert" data-testid="dictate-error" className="absolute bottom-full left-2 right-2 mb-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 shadow-sm">
          {message}
          <button type="button" onClick={() => setMessage(null)} className="ml-2 font-medium underline">
            Dismiss
          </button>
        </p>
      )}
    </>
  );
}
