// "Read aloud" with on-device voices only, so the text never goes to a network voice. Every utterance names its
// voice, as the browser's default may be a network one.
import { speakableBlocks } from "./speakable";

export type ReadAloudState = { id: string; paused: boolean } | null;

let state: ReadAloudState = null;
const listeners = new Set<() => void>();

function set(next: ReadAloudState): void {
  state = next;
  for (const listener of [...listeners]) listener();
}

export function readAloudState(): ReadAloudState {
  return state;
}

/** @returns unsubscribe */
export function subscribeReadAloud(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function onDeviceVoices(voices: readonly SpeechSynthesisVoice[]): SpeechSynthesisVoice[] {
  return voices.filter((voice) => voice.localService);
}

/** Waits up to `waitMs`, as Chromium fills the list after `voiceschanged`. */
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

/** `language` is BCP 47; else the local default, else the first. */
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

/** One utterance per block, stopping whatever was being read. */
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

export function togglePause(): void {
  if (!state) return;
  if (state.paused) speechSynthesis.resume();
  else speechSynthesis.pause();
  set({ ...state, paused: !state.paused });
}

export function stopReading(): void {
  if (typeof speechSynthesis !== "undefined") speechSynthesis.cancel();
  set(null);
}
