/**
 * A dictated recording to text (docs/issues.md #52). Standard models: POST /api/audio/transcriptions, where Hush's
 * server hands the audio to the labelled provider and keeps nothing. Confidential models: ./confidential.ts, the
 * audio encrypted in this browser to the verified enclave.
 */
import { apiFetch } from "@/lib/browser/api/client";
import { AppError } from "@/lib/shared/errors";
import type { RecordedAudio } from "./recorder";

/** The sentence of a transcription that did not answer in time. */
export const TRANSCRIPTION_TIMEOUT_MESSAGE = "Transcription took too long. Your recording was not kept; please try again, or type your message.";

/**
 * The transcript of `audio` for the standard model `model`, within `timeoutMs`.
 * @throws AppError: the route's refusals (413, 415, 429 "rate_limited:stt_quota", 502, 503…), "timeout:stt" past
 *   `timeoutMs`, "offline:api"; DOMException "AbortError" when `signal` aborts.
 */
export async function transcribeStandard(audio: RecordedAudio, model: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<string> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const answer = await apiFetch("audioTranscriptions", { query: { model, seconds: audio.seconds }, raw: audio.blob, signal });
    return answer.text;
  } catch (error) {
    if (timeout.aborted && !options.signal?.aborted) throw new AppError("timeout:stt", TRANSCRIPTION_TIMEOUT_MESSAGE);
    throw error;
  }
}

/** `current` composer text with `transcript` after it, a space between when the text does not end in one. */
export function withTranscript(current: string, transcript: string): string {
  const text = transcript.trim();
  if (!text) return current;
  if (current === "" || /\s$/.test(current)) return current + text;
  return `${current} ${text}`;
}
