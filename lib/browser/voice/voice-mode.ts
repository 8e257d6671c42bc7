// Voice mode's loop without React: listen → send → wait for the answer → read it aloud → listen again.

export type VoiceModeState =
  | { phase: "off" }
  | { phase: "listening" }
  /** `before`: the latest answer's id when the transcript was sent. */
  | { phase: "answering"; before: string | null; started: boolean }
  | { phase: "speaking"; id: string; started: boolean };

export const VOICE_OFF: VoiceModeState = { phase: "off" };

export function sent(latestAnswerId: string | null): VoiceModeState {
  return { phase: "answering", before: latestAnswerId, started: false };
}

/** A turn that ended without a new answer (an error) leaves voice mode, so the microphone does not reopen over it. */
export function afterTurn(state: VoiceModeState, busy: boolean, latestAnswerId: string | null): VoiceModeState {
  if (state.phase !== "answering") return state;
  if (busy) return state.started ? state : { ...state, started: true };
  if (!state.started) return state;
  return latestAnswerId !== null && latestAnswerId !== state.before ? { phase: "speaking", id: latestAnswerId, started: false } : VOICE_OFF;
}

/** Once the answer's reading has started and is no longer under way, listen again. */
export function afterReading(state: VoiceModeState, readingId: string | null): VoiceModeState {
  if (state.phase !== "speaking") return state;
  if (readingId === state.id) return state.started ? state : { ...state, started: true };
  return state.started ? { phase: "listening" } : state;
}

/** A level above `threshold` for `speechMs` counts as speech; then `silenceMs` below it stops. */
export interface SilenceOptions {
  threshold: number;
  speechMs: number;
  silenceMs: number;
}

/** Quiet rooms stay under 0.08 of the meter. */
const SILENCE: SilenceOptions = { threshold: 0.08, speechMs: 300, silenceMs: 1800 };

/** Fed each meter frame's level and time (ms). Nothing said yet never ends the recording: the user may be thinking. */
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
