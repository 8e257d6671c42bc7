"use client";

import { useState, useSyncExternalStore } from "react";
import { loadOnDeviceVoices, readAloud, readAloudState, stopReading, subscribeReadAloud, togglePause, voiceFor } from "@/lib/browser/voice/read-aloud";
import { ACTION_BUTTON } from "./message-actions";

/** A network voice is never used instead. */
export const NO_LOCAL_VOICE = "No on-device voice is installed in this browser, so Hush will not read aloud: it never sends an answer to a network voice.";

/** An answer's "Read aloud": play, pause/resume and stop, with on-device voices only. */
export function ReadAloudButton({ id, text }: { id: string; text: string }) {
  const current = useSyncExternalStore(subscribeReadAloud, readAloudState, () => null);
  const [note, setNote] = useState<string | null>(null);
  const mine = current?.id === id;

  const play = async () => {
    const voices = await loadOnDeviceVoices();
    const voice = voiceFor(voices, document.documentElement.lang || navigator.language || "en");
    if (!voice) {
      setNote(NO_LOCAL_VOICE);
      return;
    }
    setNote(null);
    readAloud(id, text, voice);
  };

  return (
    <>
      {mine ? (
        <>
          <button type="button" onClick={togglePause} aria-label={current.paused ? "Resume reading" : "Pause reading"} title={current.paused ? "Resume reading" : "Pause reading"} className={ACTION_BUTTON}>
            {current.paused ? (
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor">
                <path d="M8 5v14l11-7z" />
              </svg>
            ) : (
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor">
                <rect x="6" y="5" width="4" height="14" rx="1" />
                <rect x="14" y="5" width="4" height="14" rx="1" />
              </svg>
            )}
          </button>
          <button type="button" onClick={stopReading} aria-label="Stop reading" title="Stop reading" className={ACTION_BUTTON}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor">
              <rect x="6" y="6" width="12" height="12" rx="2" />
            </svg>
          </button>
        </>
      ) : (
        <button
          type="button"
          onClick={() => void play()}
          aria-label="Read aloud"
          title="Read aloud with a voice on this device (the answer is not sent anywhere)"
          className={ACTION_BUTTON}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
            <path d="M11 5 6 9H3v6h3l5 4V5z" />
            <path d="M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13" />
          </svg>
        </button>
      )}
      {note && (
        <span role="status" data-testid="read-aloud-note" className="ml-1 text-xs text-ink-600">
          {note}
        </span>
      )}
    </>
  );
}
