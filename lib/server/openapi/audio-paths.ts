import { z } from "@/lib/shared/zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { ANYONE, operation, pathsOf } from "./helpers";
import { api } from "@/lib/shared/api/contract";

const AUDIO = z.string().meta({ format: "binary" });

/** Dictation's transcription endpoint for the OpenAPI document (docs/issues.md #52), from its contract entry. */
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
  ]);
}
