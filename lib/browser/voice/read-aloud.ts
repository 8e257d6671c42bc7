/**
 * "Read aloud" (docs/issues.md #52): an answer spoken by the browser's speech synthesis with on-device voices only
 * (`SpeechSynthesisVoice.localService`), so the text never goes to a network voice. Every utterance names its voice:
 * the browser's default voice may be a network one. One answer is read at a time; its state is a small store the
 * buttons subscribe to.
 */
import { speakableBlocks } from "./speakable";

/** What is being read: the answer's id and whether it is paused, or nothing. */
export type ReadAloudState = { id: string; paused: boolean } | null;

let state: ReadAloudState = null;
const listeners = new Set<() => void>();

function set(next: ReadAloudState): void {
  state = next;
  for (const listener of [...listeners]) listener();
}

/** The current state (for useSyncExternalStore). */
export function readAloudState(): ReadAloudState {
  return state;
}

/** Call `listener` after each change; returns the unsubscribing. */
export function subscribeReadAloud(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** The voices of `voices` that run on this device (`localService`), the only ones Hush reads with. */
export function onDeviceVoices(voices: readonly SpeechSynthesisVoice[]): SpeechSynthesisVoice[] {
  return voices.filter((voice) => voice.localService);
}

/**
 * This browser's on-device voices, waiting up to `waitMs` for the list to load (Chromium fills it after
 * `voiceschanged`). Empty where there is no speech synthesis or no on-device voice.
 */
export async function loadOnDeviceVoices(waitMs = 1500): Promise<SpeechSynthesisVoice[]> {
  if (typeof speechSynthesis === "undefined") return [];
  const now = speechSynthesis.getVoices();
  if (now.length > 0) return onDeviceVoices(now);
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      speechSynthesis.removeEventListener("voiceschanged", done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    speechSynthesis.addEventListener("voiceschanged", done);
  });
  return onDeviceVoices(speechSynthesis.getVoices());
}

/** The on-device voice for `language` (BCP 47, e.g. the page's or the browser's): same language, else the local default, else the first. */
export function voiceFor(voices: readonly SpeechSynthesisVoice[], language: string): SpeechSynthesisVoice | null {
  const base = language.toLowerCase().split("-")[0]!;
  return (
    voices.find((v) => v.lang.toLowerCase() === language.toLowerCase()) ??
    voices.find((v) => v.lang.toLowerCase().split(/[-_]/)[0] === base) ??
    voices.find((v) => v.default) ??
    voices[0] ??
    null
  );
}

/**
 * Read `markdown` (the answer `id`) aloud with `voice`, one utterance per block (code blocks and tables as a short
 * note), stopping whatever was being read.
 */
export function readAloud(id: string, markdown: string, voice: SpeechSynthesisVoice): void {
  speechSynthesis.cancel();
  const blocks = speakableBlocks(markdown);
  if (blocks.length === 0) return set(null);
  set({ id, paused: false });
  blocks.forEach((text, i) => {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.voice = voice;
    utterance.lang = voice.lang;
    if (i === blocks.length - 1) utterance.onend = () => state?.id === id && set(null);
    utterance.onerror = () => state?.id === id && set(null);
    speechSynthesis.speak(utterance);
  });
}

/** Pause or resume the answer being read. */
export function togglePause(): void {
  if (!state) return;
  if (state.paused) speechSynthesis.resume();
  else speechSynthesis.pause();
  set({ ...state, paused: !state.paused });
}

/** Stop reading. */
export function stopReading(): void {
  if (typeof speechSynthesis !== "undefined") speechSynthesis.cancel();
  set(null);
}
