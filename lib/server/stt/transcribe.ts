import "server-only";
import Groq, { toFile as groqFile } from "groq-sdk";
import OpenAI, { toFile as openAiFile } from "openai";
import type { SttSettings } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";

// Standard models' transcription. Nothing of the audio or the transcript is logged or kept.

export interface Transcript {
  text: string;
  /** Seconds the provider says it heard, or null when it does not say. */
  durationSeconds: number | null;
}

export interface Recording {
  bytes: Uint8Array<ArrayBuffer>;
  /** Without parameters, e.g. "audio/webm". */
  type: string;
}

// Providers pick the decoder by the file name's extension.
const EXTENSIONS: Record<string, string> = {
  "audio/webm": "webm",
  "audio/ogg": "ogg",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/flac": "flac",
};

/** A recording's accepted media types. */
export const AUDIO_TYPES: ReadonlySet<string> = new Set(Object.keys(EXTENSIONS));

/** Local servers ignore the key, but the SDKs refuse to start without one. */
const PLACEHOLDER_API_KEY = "not-needed";

type Client = { groq: Groq } | { openai: OpenAI };
let cached: { settings: SttSettings; timeoutMs: number; client: Client } | undefined;

function clientFor(settings: SttSettings, timeoutMs: number): Client {
  if (cached?.settings === settings && cached.timeoutMs === timeoutMs) return cached.client;
  // No retries: a refusal reaches the user at once; SDK logs off, as they may quote a request.
  const common = { apiKey: settings.apiKey ?? PLACEHOLDER_API_KEY, maxRetries: 0, timeout: timeoutMs, logLevel: "off" as const };
  const client: Client =
    settings.kind === "groq"
      ? { groq: new Groq({ ...common, baseURL: settings.baseUrl ?? "https://api.groq.com" }) }
      : { openai: new OpenAI({ ...common, baseURL: settings.baseUrl, organization: null, project: null }) };
  cached = { settings, timeoutMs, client };
  return client;
}

/** @throws AppError 504 past `timeoutMs`, 429 provider busy, 422 audio refused, 502 provider failed. */
export async function transcribe(settings: SttSettings, recording: Recording, timeoutMs: number, signal: AbortSignal): Promise<Transcript> {
  const client = clientFor(settings, timeoutMs);
  const name = `recording.${EXTENSIONS[recording.type] ?? "webm"}`;
  try {
    if ("groq" in client) {
      const answer = (await client.groq.audio.transcriptions.create(
        { file: await groqFile(recording.bytes, name, { type: recording.type }), model: settings.model, response_format: "verbose_json" },
        { signal },
      )) as { text?: unknown; duration?: unknown };
      return shaped(answer);
    }
    const answer = (await client.openai.audio.transcriptions.create(
      { file: await openAiFile(recording.bytes, name, { type: recording.type }), model: settings.model, response_format: "json" },
      { signal },
    )) as { text?: unknown; duration?: unknown };
    return shaped(answer);
  } catch (error) {
    throw refusal(error);
  }
}

function shaped(answer: { text?: unknown; duration?: unknown }): Transcript {
  if (typeof answer.text !== "string") throw new AppError("upstream:stt", FAILED);
  const duration = typeof answer.duration === "number" && Number.isFinite(answer.duration) ? answer.duration : null;
  return { text: answer.text.trim(), durationSeconds: duration };
}

const FAILED = "The recording could not be transcribed. Please try again, or type your message.";

function refusal(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof Groq.APIConnectionTimeoutError || error instanceof OpenAI.APIConnectionTimeoutError) {
    return new AppError("timeout:stt", "Transcription took too long. Please try a shorter recording, or type your message.");
  }
  const status = error instanceof Groq.APIError || error instanceof OpenAI.APIError ? error.status : undefined;
  // Only the status is logged: a provider's message may quote the request.
  logger("stt").warn({ status: status ?? null }, "transcription failed");
  if (status === 429) return new AppError("rate_limited:stt_provider", "The transcription service is busy. Please try again in a moment.", { headers: { "Retry-After": "5" } });
  if (status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403) {
    return new AppError("unprocessable:stt", "The recording could not be understood. Please try again, or type your message.");
  }
  return new AppError("upstream:stt", FAILED);
}
