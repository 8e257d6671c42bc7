/**
 * Voice mode's logic (docs/issues.md #52), without React: the hands-free loop listen → send → wait for the answer →
 * read it aloud → listen again, and the silence that ends a spoken message. The composer's hook
 * (components/chat/use-voice-mode.ts) feeds it the chat's busy flag, the latest answer and the microphone's level.
 */

/** Where voice mode is: off; recording the user; waiting for the answer to the sent transcript; reading it aloud. */
export type VoiceModeState =
  | { phase: "off" }
  | { phase: "listening" }
  /** `before`: the id of the latest answer when the transcript was sent; `started`: the turn has been seen running. */
  | { phase: "answering"; before: string | null; started: boolean }
  /** `started`: the reading of answer `id` has been seen under way. */
  | { phase: "speaking"; id: string; started: boolean };

export const VOICE_OFF: VoiceModeState = { phase: "off" };

/** The state once the transcript was sent: wait for an answer newer than `latestAnswerId`. */
export function sent(latestAnswerId: string | null): VoiceModeState {
  return { phase: "answering", before: latestAnswerId, started: false };
}

/**
 * The state after the chat reports `busy` and its latest answer: a turn that ran and ended with a new answer is read
 * aloud; one that ended without (an error: the chat shows it and Retry) leaves voice mode, so the microphone does not
 * reopen over an error. Other phases are unchanged.
 */
export function afterTurn(state: VoiceModeState, busy: boolean, latestAnswerId: string | null): VoiceModeState {
  if (state.phase !== "answering") return state;
  if (busy) return state.started ? state : { ...state, started: true };
  if (!state.started) return state;
  return latestAnswerId !== null && latestAnswerId !== state.before ? { phase: "speaking", id: latestAnswerId, started: false } : VOICE_OFF;
}

/**
 * The state after the read-aloud store reports what it reads (`readingId`, null: nothing): once the answer's reading
 * has started and is no longer under way (finished, or stopped from the answer's own buttons), listen again.
 */
export function afterReading(state: VoiceModeState, readingId: string | null): VoiceModeState {
  if (state.phase !== "speaking") return state;
  if (readingId === state.id) return state.started ? state : { ...state, started: true };
  return state.started ? { phase: "listening" } : state;
}

/** How silence ends a spoken message: a level above `threshold` for `speechMs` counts as speech; then `silenceMs` below it stops. */
export interface SilenceOptions {
  threshold: number;
  speechMs: number;
  silenceMs: number;
}

/** The meter's level (lib/browser/voice/recorder.ts scales a normal voice to most of 0..1): quiet rooms stay under 0.08. */
const SILENCE: SilenceOptions = { threshold: 0.08, speechMs: 300, silenceMs: 1800 };

/**
 * A detector fed the level and the time (ms) of each meter frame; it answers true once speech was heard and has been
 * followed by `silenceMs` of quiet. Nothing said yet never ends the recording (the user may still be thinking).
 */
export function silenceDetector(options: SilenceOptions = SILENCE): (level: number, nowMs: number) => boolean {
  let loudSince: number | null = null;
  let heard = false;
  let quietSince: number | null = null;
  return (level, nowMs) => {
    if (level >= options.threshold) {
      quietSince = null;
      loudSince ??= nowMs;
      if (nowMs - loudSince >= options.speechMs) heard = true;
      return false;
    }
    loudSince = null;
    if (!heard) return false;
    quietSince ??= nowMs;
    return nowMs - quietSince >= options.silenceMs;
  };
}
