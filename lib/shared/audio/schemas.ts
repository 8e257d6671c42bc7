import { z } from "@/lib/shared/zod";

/**
 * POST /api/audio/transcriptions (docs/issues.md #52): the query names the model the dictation is for (its
 * transcription provider, its plan) and the recording's length in whole seconds as the browser measured it (counted
 * against the day's dictation seconds before the provider is called). The body is the audio itself, raw or as the
 * `file` field of multipart/form-data.
 */
export const transcriptionQuerySchema = z.strictObject({
  model: z.string().trim().min(1).max(64),
  seconds: z.coerce.number().int().min(1).max(600),
});

/** The transcript, and the seconds counted for it. */
export const transcriptionSchema = z.object({
  text: z.string(),
  seconds: z.number().int().nonnegative(),
});

/**
 * GET /api/audio/seconds (docs/issues.md #52): the caller's dictation seconds today, read without counting, so a page
 * loaded after the day's seconds are used up shows Dictate disabled from the start. Whole seconds.
 */
export const audioSecondsSchema = z.strictObject({
  limit_seconds: z.number().int().nonnegative(),
  remaining_seconds: z.number().int().nonnegative(),
});
