import { z } from "@/lib/shared/zod";

/** POST /api/audio/transcriptions' query: the model, and the recording's whole seconds as the browser measured it. */
export const transcriptionQuerySchema = z.strictObject({
  model: z.string().trim().min(1).max(64),
  seconds: z.coerce.number().int().min(1).max(600),
});

export const transcriptionSchema = z.object({
  text: z.string(),
  seconds: z.number().int().nonnegative(),
});

/** GET /api/audio/seconds: today's dictation seconds, read without counting. */
export const audioSecondsSchema = z.strictObject({
  limit_seconds: z.number().int().nonnegative(),
  remaining_seconds: z.number().int().nonnegative(),
});
