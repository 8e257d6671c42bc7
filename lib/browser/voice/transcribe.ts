import { apiFetch } from "@/lib/browser/api/client";
import { AppError } from "@/lib/shared/errors";
import type { RecordedAudio } from "./recorder";

export const TRANSCRIPTION_TIMEOUT_MESSAGE = "Transcription took too long. Your recording was not kept; please try again, or type your message.";

/** @throws AppError: the route's refusals, "timeout:stt", "offline:api"; DOMException "AbortError" when `signal` aborts */
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

/** A space between when `current` does not end in one. */
export function withTranscript(current: string, transcript: string): string {
  const text = transcript.trim();
  if (!text) return current;
  if (current === "" || /\s$/.test(current)) return current + text;
  return `${current} ${text}`;
}
