"use client";

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { loadOnDeviceVoices, readAloud, readAloudState, stopReading, subscribeReadAloud, voiceFor } from "@/lib/browser/voice/read-aloud";
import { afterReading, afterTurn, sent, VOICE_OFF, type VoiceModeState } from "@/lib/browser/voice/voice-mode";
import { NO_LOCAL_VOICE } from "./read-aloud-button";

/** The latest answer on screen, for voice mode to read once a new one has arrived. */
export interface LatestAnswer {
  id: string;
  text: string;
}

interface VoiceModeOptions {
  /** An answer is being written (the chat's turn runner is busy). */
  busy: boolean;
  latestAnswer: LatestAnswer | null;
  /** Put the transcript in the composer and send it through the composer's own send path. */
  sendTranscript: (text: string) => void;
}

/**
 * Voice mode (docs/issues.md #52), off by default: the Dictate button listens by itself, a transcript is sent as the
 * composer sends typed text, the answer is read aloud with on-device voices only (lib/browser/voice/read-aloud.ts),
 * then it listens again. The toggle or Escape leaves it, stopping any recording and reading; a failed recording or
 * turn leaves it too, so the microphone never reopens over an error. No audio is kept: recordings are the Dictate
 * button's, dropped once transcribed.
 */
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
    // Only voice mode's own reading stops: an answer the user chose to hear stays.
    if (speakingNow.current !== null && readAloudState()?.id === speakingNow.current) stopReading();
    setState(VOICE_OFF);
  }, []);

  const toggle = () => {
    if (state.phase !== "off") return leave();
    setNote(null);
    setState({ phase: "listening" });
  };

  // The turn's progress and the reading's, adjusted while rendering (not in an effect): an answer that has arrived
  // is read, a failed turn leaves voice mode, and a finished reading listens again.
  const next = afterReading(afterTurn(state, busy, latestId), reading?.id ?? null);
  if (next !== state) setState(next);

  // Reading the new answer; without an on-device voice it says so once and listens again.
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
      // Read (the store shows it under way), or nothing to read: listen again.
      if (readAloudState()?.id === speakingId) return;
      setState((current) => (current.phase === "speaking" && current.id === speakingId ? { phase: "listening" } : current));
    });
    return () => {
      live = false;
    };
  }, [speakingId, text]);

  // Escape leaves voice mode whatever it is doing (a recording's own Escape handler cancels the recording first).
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
    /** The NO_LOCAL_VOICE sentence once an answer could not be read. */
    note,
    toggle,
    leave,
    /** The Dictate button's transcript in voice mode: sent, then wait for the answer. */
    onTranscript: (transcript: string) => {
      setState(sent(latestId));
      sendTranscript(transcript);
    },
  };
}
