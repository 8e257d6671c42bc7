import { z } from "@/lib/shared/zod";
import { chatResultSchema } from "@/lib/shared/api/responses";
import { webSearchRecordSchema } from "@/lib/shared/search/record";
import { continuationStepSchema } from "@/lib/shared/chat/turn-schema";

// The chat calls' Server-Sent Events: each event's name and the schema of its `data` line.

const searchStepSchema = z
  .strictObject({
    step: z.number().int().min(1),
    via: z.literal("searxng"),
    engine: z.string(),
    queries: z.array(z.string()),
    refused: z.number().int().min(0),
    held: webSearchRecordSchema.shape.held.unwrap(),
    /** "running": sent now; "over_quota": nothing could be sent; "blocked": every query held back; "failed": no usable query. */
    status: z.enum(["running", "over_quota", "blocked", "failed"]),
  })
  .meta({ id: "SearchStep" });
export type SearchStep = z.infer<typeof searchStepSchema>;

const readStepSchema = z
  .strictObject({
    step: z.number().int().min(1),
    via: z.literal("read"),
    host: z.string(),
    path: z.string(),
    url: z.string(),
    status: z.enum(["running", "refused", "ok", "failed"]),
  })
  .meta({ id: "ReadStep" });
export type ReadStep = z.infer<typeof readStepSchema>;

const deviceToolCallSchema = z.strictObject({
  id: z.string(),
  type: z.literal("function"),
  function: z.strictObject({ name: z.string(), arguments: z.string() }),
});

export const chatStreamEventSchemas = {
  delta: z.strictObject({ text: z.string() }),
  step: z.discriminatedUnion("via", [searchStepSchema, readStepSchema]),
  search: webSearchRecordSchema,
  read: readStepSchema,
  /** The turn pauses for device tools: send their results back with `token`, `steps` and `search` echoed (docs/issues.md #51). */
  tool_calls: z.strictObject({
    tool_calls: z.array(deviceToolCallSchema).min(1),
    token: z.string(),
    steps: z.array(continuationStepSchema).optional(),
    search: webSearchRecordSchema.optional(),
  }),
  done: chatResultSchema,
  /** The provider failed after streaming began (nothing saved), or the server shut down mid-answer (503). */
  error: z.strictObject({ error: z.string(), status: z.number().int() }),
} as const;

export type ChatStreamEventName = keyof typeof chatStreamEventSchemas;
export type ChatStreamEventData<K extends ChatStreamEventName> = z.input<(typeof chatStreamEventSchemas)[K]>;
