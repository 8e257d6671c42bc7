import { z } from "@/lib/shared/zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { ANYONE, operation, pathsOf } from "./helpers";
import { api } from "@/lib/shared/api/contract";

const AUDIO = z.string().meta({ format: "binary" });

/** Dictation's endpoints. */
export function audioPaths(): ZodOpenApiPathsObject {
  return pathsOf([
    operation(api.audioTranscriptions, {
      operationId: "transcribeAudio",
      tags: ["chat"],
      summary: "Transcribe one dictated recording for a standard model with its labelled provider; the audio is never kept",
      description:
        "The recording is held in memory for this request only, sent to the configured transcription provider (STT_*) and " +
        "dropped; neither it nor the transcript is logged or stored. `seconds` is counted against the day's dictation seconds " +
        "(STT_SECONDS_PER_DAY_VISITOR, _FREE, _PRO) and may be at most STT_MAX_SECONDS. A confidential model answers 409: " +
        "its audio is encrypted in the browser to the enclave.",
      security: ANYONE,
      requestBody: {
        description: "The audio, raw or as the `file` field of multipart/form-data (413 above STT_MAX_BYTES, 415 for another type).",
        required: true,
        content: {
          "audio/webm": { schema: AUDIO },
          "audio/ogg": { schema: AUDIO },
          "audio/wav": { schema: AUDIO },
          "audio/mpeg": { schema: AUDIO },
          "audio/mp4": { schema: AUDIO },
          "audio/flac": { schema: AUDIO },
          "multipart/form-data": { schema: z.object({ file: AUDIO }) },
        },
      },
      errors: [400, 403, 409, 413, 415, 422, 429, 502, 503, 504],
    }),
    operation(api.audioSeconds, {
      operationId: "audioSecondsLeft",
      tags: ["chat"],
      summary: "The caller's dictation seconds today, read without counting",
      description:
        "The day's limit (STT_SECONDS_PER_DAY_VISITOR, _FREE, _PRO) and what is left of it on the counter both transcription " +
        "routes add to; the chat page reads it on load, so Dictate is disabled from the start once the seconds are used up.",
      security: ANYONE,
      errors: [403],
    }),
    operation(api.confidentialTranscriptions, {
      operationId: "confidentialTranscription",
      tags: ["chat"],
      summary: "One EHBP-encrypted dictation, relayed byte for byte to the attested enclave's /v1/audio/transcriptions",
      description:
        "The body is EHBP ciphertext of an OpenAI audio-transcriptions multipart request that only the enclave can read; it is " +
        "never parsed, logged or stored. The model of X-Hush-Model must be confidential and allowed by the plan; " +
        "X-Hush-Audio-Seconds is counted against the day's dictation seconds. 404 when confidential inference is off.",
      security: ANYONE,
      requestParams: {
        header: z.object({
          "X-Hush-Model": z.string().meta({ description: "Public model code the plan is checked against" }),
          "X-Hush-Audio-Seconds": z.string().meta({ description: "The recording's length in whole seconds, 1..STT_MAX_SECONDS" }),
          "Ehbp-Encapsulated-Key": z.string().regex(/^[0-9a-fA-F]{64}$/).meta({ description: "HPKE encapsulated key, hex (EHBP SPEC.md §4.1)" }),
        }),
      },
      requestBody: {
        description: "EHBP-encrypted multipart/form-data transcription request (413 above STT_MAX_BYTES plus 64 KiB).",
        required: true,
        content: { "application/octet-stream": { schema: AUDIO } },
      },
      responses: {
        "200": {
          description: "The enclave's encrypted transcript, streamed unchanged.",
          headers: z.object({ "Ehbp-Response-Nonce": z.string().meta({ description: "EHBP response nonce, hex (EHBP SPEC.md §4.2)" }) }),
          content: { "application/octet-stream": { schema: AUDIO } },
        },
      },
      errors: [400, 403, 404, 413, 429, 502, 503, 504],
    }),
  ]);
}
