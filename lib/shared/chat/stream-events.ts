import { z } from "@/lib/shared/zod";
import { chatResultSchema } from "@/lib/shared/api/responses";
import { webSearchRecordSchema } from "@/lib/shared/search/record";
import { continuationStepSchema } from "@/lib/shared/chat/turn-schema";

/**
 * The chat calls' Server-Sent Events (`Accept: text/event-stream` on POST /api/ns/chat and /api/ns/chat_user):
 * each event's name and the schema of its `data` line. lib/server/chat/respond.ts writes only these, typed by
 * them; OpenAPI lists them (lib/server/openapi/paths.ts); the route tests parse every event they read with them.
 */

/** One search step while it happens, sent before its queries run (lib/server/chat/tool-loop.ts). */
export const searchStepSchema = z
  .strictObject({
    /** 1 for the turn's first search, then 2, ... */
    step: z.number().int().min(1),
    via: z.literal("searxng"),
    /** Who runs the queries: the SearXNG host. */
    engine: z.string(),
    /** The queries exactly as sent (those the day's quota refused are left out). */
    queries: z.array(z.string()),
    /** Queries the model wrote that the day's search quota refused: never sent. */
    refused: z.number().int().min(0),
    /** Queries held back by the personal-data check (lib/shared/search/personal-data.ts): never sent, never counted. */
    held: webSearchRecordSchema.shape.held.unwrap(),
    /** "running": sent now; "over_quota": nothing could be sent; "blocked": every query was held back; "failed": no usable query. */
    status: z.enum(["running", "over_quota", "blocked", "failed"]),
  })
  .meta({ id: "SearchStep" });
export type SearchStep = z.infer<typeof searchStepSchema>;

/** One page read (lib/server/chat/tool-read-page.ts): `event: step` before the read, `event: read` after it. */
export const readStepSchema = z
  .strictObject({
    /** 1 for the turn's first read, then 2, ... */
    step: z.number().int().min(1),
    via: z.literal("read"),
    /** The page's host (with a port other than the scheme's) and path, no query: "Read: host/path". */
    host: z.string(),
    path: z.string(),
    /** The whole URL with its scheme (the link under the answer); at `read` with "ok", the page's after redirects. */
    url: z.string(),
    /**
     * `step`: "running" (being read now) or "refused" (not contacted: not this turn's to read, or not allowed).
     * `read`: "ok" (read; host and path are then the page's after redirects), "refused" or "failed".
     */
    status: z.enum(["running", "refused", "ok", "failed"]),
  })
  .meta({ id: "ReadStep" });
export type ReadStep = z.infer<typeof readStepSchema>;

/** A device-tool call in OpenAI's wire shape, as the model made it. */
const deviceToolCallSchema = z.strictObject({
  id: z.string(),
  type: z.literal("function"),
  function: z.strictObject({ name: z.string(), arguments: z.string() }),
});

export const chatStreamEventSchemas = {
  /** A piece of the answer's text. */
  delta: z.strictObject({ text: z.string() }),
  /** A search step or a page read as it starts (the tool loop only). */
  step: z.discriminatedUnion("via", [searchStepSchema, readStepSchema]),
  /** The turn's search record so far, after a search ran. */
  search: webSearchRecordSchema,
  /** A page read's outcome. */
  read: readStepSchema,
  /**
   * The turn pauses for device tools: run them and send their results back with `token` in `continuation`, after
   * `steps` (the server-run calls since the request began, with their results) and with `search` (the record so far)
   * echoed as they came (docs/issues.md #51).
   */
  tool_calls: z.strictObject({
    tool_calls: z.array(deviceToolCallSchema).min(1),
    token: z.string(),
    steps: z.array(continuationStepSchema).optional(),
    search: webSearchRecordSchema.optional(),
  }),
  /** The answer is complete: the chat call's JSON answer, once, last. */
  done: chatResultSchema,
  /** The provider failed after streaming began (nothing saved), or the server shut down mid-answer (503). */
  error: z.strictObject({ error: z.string(), status: z.number().int() }),
} as const;

export type ChatStreamEventName = keyof typeof chatStreamEventSchemas;
/** The `data` of event `K`, as the server writes it. */
export type ChatStreamEventData<K extends ChatStreamEventName> = z.input<(typeof chatStreamEventSchemas)[K]>;
