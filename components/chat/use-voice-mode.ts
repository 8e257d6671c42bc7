"use client";

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { loadOnDeviceVoices, readAloud, readAloudState, stopReading, subscribeReadAloud, voiceFor } from "@/lib/browser/voice/read-aloud";
import { afterReading, afterTurn, sent, VOICE_OFF, type VoiceModeState } from "@/lib/browser/voice/voice-mode";
import { NO_LOCAL_VOICE } from "./read-aloud-button";

export interface LatestAnswer {
  id: string;
  text: string;
}

interface VoiceModeOptions {
  busy: boolean;
  latestAnswer: LatestAnswer | null;
  /** Through the composer's own send path. */
  sendTranscript: (text: string) => void;
}

/** Voice mode: listen, send, read the answer aloud on the device, listen again; an error leaves it. */
export function useVoiceMode({ busy, latestAnswer, sendTranscript }: VoiceModeOptions) {
  const [state, setState] = useState<VoiceModeState>(VOICE_OFF);
  const [note, setNote] = useState<string | null>(null);
  const reading = useSyncExternalStore(subscribeReadAloud, readAloudState, () => null);
  const latestId = latestAnswer?.id ?? null;

  const speakingNow = useRef<string | null>(null);
  useEffect(() => {
    speakingNow.current = state.phase === "speaking" ? state.id : null;
  }, [state]);
  const leave = useCallback(() => {
    // An answer the user chose to hear stays.
    if (speakingNow.current !== null && readAloudState()?.id === speakingNow.current) stopReading();
    setState(VOICE_OFF);
  }, []);

  const toggle = () => {
    if (state.phase !== "off") return leave();
    setNote(null);
    setState({ phase: "listening" });
  };

  // Adjusted while rendering, not in an effect.
  const next = afterReading(afterTurn(state, busy, latestId), reading?.id ?? null);
  if (next !== state) setState(next);

  // Without an on-device voice it says so once and listens again.
  const speakingId = state.phase === "speaking" ? state.id : null;
  const text = latestAnswer?.id === speakingId ? latestAnswer?.text : undefined;
  useEffect(() => {
    if (speakingId === null || text === undefined) return;
    let live = true;
    void loadOnDeviceVoices().then((voices) => {
      if (!live) return;
      const voice = voiceFor(voices, document.documentElement.lang || navigator.language || "en");
      if (voice) readAloud(speakingId, text, voice);
      else setNote(NO_LOCAL_VOICE);
      if (readAloudState()?.id === speakingId) return;
      setState((current) => (current.phase === "speaking" && current.id === speakingId ? { phase: "listening" } : current));
    });
    return () => {
      live = false;
    };
  }, [speakingId, text]);

  // A recording's own Escape handler cancels the recording first.
  const on = state.phase !== "off";
  useEffect(() => {
    if (!on) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      event.stopPropagation();
      leave();
    };
    document.addEventListener("keydown", onKey, true);
    return () => document.removeEventListener("keydown", onKey, true);
  }, [on, leave]);

  return {
    state,
    on,
    note,
    toggle,
    leave,
    onTranscript: (transcript: string) => {
      setState(sent(latestId));
      sendTranscript(transcript);
    },
  };
}
