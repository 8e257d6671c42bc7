import { z } from "@/lib/shared/zod";
import { MAX_MEMORIES, MEMORY_MAX_CHARS } from "@/lib/shared/memory/limits";
import { PROJECT_INSTRUCTIONS_MAX_CHARS } from "@/lib/shared/projects/limits";
import { KNOWLEDGE_MAX_PASSAGES } from "@/lib/shared/projects/knowledge-limits";
import { MAX_CONTINUATION_STEPS, MAX_STEP_TEXT } from "@/lib/shared/llm/device-tools";
import { DEVICE_TOOL_NAMES } from "@/lib/shared/llm/device-tools";
import { READ_PAGE_TOOL_NAME, WEB_SEARCH_TOOL_NAME } from "@/lib/shared/llm/tools";
import { webSearchRecordSchema } from "@/lib/shared/search/record";
import { contentImages, contentText, parseImageDataUrl, type ImageLimits } from "@/lib/shared/chat/images";

// The one shape of a chat turn (docs/product.md §7), built per configured limits, which bound abuse only.
export interface ChatLimits extends ImageLimits {
  maxMessages: number;
  maxMessageChars: number;
  maxDocuments: number;
  maxDocumentChars: number;
  maxRequestBytes: number;
}

export const DEFAULT_CHAT_LIMITS: ChatLimits = {
  maxMessages: 10_000,
  maxMessageChars: 32_000,
  maxDocuments: 20,
  maxDocumentChars: 60_000,
  maxRequestBytes: 16 * 1024 * 1024,
  maxImagesPerMessage: 4,
  maxImagesPerRequest: 5,
  maxImageBytes: 3 * 1024 * 1024,
};

// "system" is accepted and dropped: the server's prompt is the only system text.
export const roleSchema = z.enum(["user", "assistant", "system"]);
export type Role = z.infer<typeof roleSchema>;

export interface ConversationDocument {
  name: string;
  text: string;
}

export interface KnowledgePassage {
  file: string;
  part: string;
  text: string;
}

const MAX_OFFERED_TOOLS = 4;
export const MAX_STEP_TOOL_CALLS = 8;
export { MAX_CONTINUATION_STEPS };
export const TOOL_RESULT_MAX_CHARS = MAX_STEP_TEXT;
export const SERVER_TOOL_RESULT_MAX_CHARS = 250_000;

const SERVER_TOOL_NAMES: readonly string[] = [WEB_SEARCH_TOOL_NAME, READ_PAGE_TOOL_NAME];

export const continuationStepSchema = z
  .object({
    tool_calls: z
      .array(
        z
          .object({
            id: z.string().min(1).max(200),
            type: z.literal("function"),
            function: z.object({ name: z.string().min(1).max(100), arguments: z.string().max(MAX_STEP_TEXT) }).strict(),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_STEP_TOOL_CALLS),
    results: z
      .array(
        z
          .object({
            role: z.literal("tool"),
            tool_call_id: z.string().min(1).max(200),
            content: z.string().max(SERVER_TOOL_RESULT_MAX_CHARS, `A tool result can have at most ${SERVER_TOOL_RESULT_MAX_CHARS.toLocaleString("en-US")} characters.`),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_STEP_TOOL_CALLS),
  })
  .strict()
  .superRefine((step, ctx) => {
    const ids = step.tool_calls.map((c) => c.id);
    if (step.results.length !== ids.length || step.results.some((r, i) => r.tool_call_id !== ids[i])) {
      ctx.addIssue({ code: "custom", path: ["results"], message: "Answer each tool call once, in the order of `tool_calls`." });
    }
    step.results.forEach((r, i) => {
      const name = step.tool_calls[i]?.function.name ?? "";
      if (!SERVER_TOOL_NAMES.includes(name) && r.content.length > TOOL_RESULT_MAX_CHARS) {
        ctx.addIssue({ code: "custom", path: ["results", i, "content"], message: `A tool result can have at most ${TOOL_RESULT_MAX_CHARS.toLocaleString("en-US")} characters.` });
      }
    });
  })
  .meta({ id: "ContinuationStep" });
export type ContinuationStep = z.infer<typeof continuationStepSchema>;

/** Memoised per limits; strict at every level (an unknown field is a 400). */
export function chatRequestSchema(limits: ChatLimits): ReturnType<typeof buildChatRequestSchema> {
  const key = JSON.stringify([
    limits.maxMessages, limits.maxMessageChars, limits.maxDocuments, limits.maxDocumentChars, limits.maxRequestBytes,
    limits.maxImagesPerMessage, limits.maxImagesPerRequest, limits.maxImageBytes,
  ]);
  let schema = schemaCache.get(key);
  if (!schema) {
    schema = buildChatRequestSchema(limits);
    schemaCache.set(key, schema);
  }
  return schema;
}

const schemaCache = new Map<string, ReturnType<typeof buildChatRequestSchema>>();

function buildChatRequestSchema(limits: ChatLimits) {
  const documentText = z
    .string()
    .max(limits.maxDocumentChars, `A document can have at most ${limits.maxDocumentChars.toLocaleString("en-US")} characters.`);
  const text = z.string().max(limits.maxMessageChars, `A message can have at most ${limits.maxMessageChars.toLocaleString("en-US")} characters.`);
  const parts = z
    .array(
      z.discriminatedUnion("type", [
        z.object({ type: z.literal("text"), text }).strict(),
        z
          .object({
            type: z.literal("image_url"),
            image_url: z
              .object({ url: z.string().meta({ description: "A base64 data URL: data:image/(png|jpeg|webp|gif);base64,..." }) })
              .strict(),
          })
          .strict(),
      ]),
    )
    .min(1)
    .max(2 * limits.maxImagesPerMessage + 2, "A message has too many content parts.")
    .meta({ description: "OpenAI content parts: text and images (docs/issues.md #23), for user messages to a model that reads images." });
  const message = z.object({ role: roleSchema, content: z.union([text, parts]) }).strict();
  return z
    .object({
      messages: z
        .array(message)
        .min(1, "Send at least one message.")
        .max(limits.maxMessages, `A chat request can carry at most ${limits.maxMessages} messages.`),
      model: z.string().min(1).max(100),
      document: z
        .object({
          name: z.string().trim().min(1).max(255),
          text: documentText,
          truncated: z.boolean().optional().meta({ description: "The browser read only part of the PDF (pages or characters)." }),
        })
        .strict()
        .nullable()
        .optional()
        .meta({ description: "This turn's PDF as the browser extracted it (the web app's way; every model, confidential ones inside the encrypted request)." }),
      // The spec's PDF attachment, read on the server for a standard model, refused (409) for a confidential one.
      file: z
        .object({
          name: z.string().trim().min(1).max(255),
          type: z.string().max(255).meta({ description: "The file's media type: only application/pdf is read (415 otherwise)." }),
          content: z.string().meta({ description: "The file as a base64 data URL, as FileReader.readAsDataURL writes it: data:application/pdf;base64,..." }),
        })
        .strict()
        .nullable()
        .optional()
        .meta({
          description:
            "This turn's PDF, the spec's way (docs/product.md §7): read by the server with the same limits and code as the browser's, " +
            "then answered as if its text had come as `document`. Standard models only: a confidential model refuses it (409). Null or absent: none.",
        }),
      documents: z
        .array(z.object({ name: z.string().trim().min(1).max(255), text: documentText }).strict())
        .max(limits.maxDocuments, `A chat request can carry at most ${limits.maxDocuments} documents.`)
        .optional()
        .meta({ description: "The conversation's earlier documents (name and extracted text), oldest first, so follow-up questions keep them." }),
      instructions: z
        .string()
        .max(PROJECT_INSTRUCTIONS_MAX_CHARS, `A project's instructions can have at most ${PROJECT_INSTRUCTIONS_MAX_CHARS.toLocaleString("en-US")} characters.`)
        .nullable()
        .optional()
        .meta({ description: "docs/issues.md #41: the chat's project's instructions (opened from the vault in the browser; never stored by the server). They follow the server's own prompt, never replace it." }),
      knowledge: z
        .array(
          z
            .object({ file: z.string().trim().min(1).max(255), part: z.string().max(100), text: documentText })
            .strict()
            .meta({ id: "KnowledgePassage" }),
        )
        .max(KNOWLEDGE_MAX_PASSAGES, `A chat request can carry at most ${KNOWLEDGE_MAX_PASSAGES} project passages.`)
        .optional()
        .meta({ description: "docs/issues.md #41: the passages of the project's files that match this turn, best first; reference material, never instructions." }),
      memories: z
        .array(z.string().max(MEMORY_MAX_CHARS, `A memory can have at most ${MEMORY_MAX_CHARS} characters.`))
        .max(MAX_MEMORIES, `A chat request can carry at most ${MAX_MEMORIES} memories.`)
        .optional()
        .meta({ description: "docs/issues.md #41: the user's memories, newest first, when memory is on (opened from the vault in the browser; never stored by the server)." }),
      chat_id: z.string().max(100).nullable().optional(),
      save_chat: z.boolean().optional(),
      web_search: z
        .boolean()
        .optional()
        .meta({ description: "Search the web for this turn (docs/issues.md #40): the server queries its SearXNG and gives the model the results." }),
      tools: z
        .array(z.enum(DEVICE_TOOL_NAMES))
        .max(MAX_OFFERED_TOOLS, `A chat request can offer at most ${MAX_OFFERED_TOOLS} device tools.`)
        .optional()
        .meta({
          description:
            "docs/issues.md #50: device tools this client runs itself, by name (`device_time`, and `run_code` of docs/issues.md #51 unless " +
            "CODE_EXECUTION is off). When the model calls one " +
            "the answer ends with SSE `event: tool_calls` `{ tool_calls, token }`; send the results back in `continuation`.",
        }),
      continuation: z
        .object({
          token: z.string().min(1).max(2_000),
          steps: z.array(continuationStepSchema).min(1).max(MAX_CONTINUATION_STEPS),
          search: webSearchRecordSchema.optional().meta({
            description:
              "docs/issues.md #51: the last pause's `search` (the turn's search record so far), echoed: the continued answer's record " +
              "starts from it, so its queries, sources and pages are kept and a later search numbers its sources after them.",
          }),
        })
        .strict()
        .nullable()
        .optional()
        .meta({
          description:
            "docs/issues.md #50: continue a paused turn: the last `tool_calls` event's token and every step so far (its tool_calls " +
            "and results), oldest first: each pause's server-run `steps` as it gave them, then its device-tool calls with this " +
            "client's results. A valid continuation is not counted again; a forged, replayed or expired one (or one whose calls " +
            "are not the token's) is refused with 4xx.",
        }),
    })
    .strict()
    .superRefine((body, ctx) => {
      const last = body.messages.at(-1);
      if (!last || last.role !== "user" || contentText(last.content).trim() === "") {
        ctx.addIssue({ code: "custom", path: ["messages"], message: "The last message must be a non-empty user message." });
      }
      checkImages(body.messages, limits, ctx);
      if (body.file && body.document) {
        ctx.addIssue({ code: "custom", path: ["file"], message: "Send this turn's PDF either as `file` or as `document`, not both." });
      }
    });
}

export type ChatRequest = z.infer<ReturnType<typeof buildChatRequestSchema>>;

export type ChatRequestBody = z.input<ReturnType<typeof buildChatRequestSchema>>;

export type EveryField<T> = { [K in keyof Required<T>]: T[K] };

// The messages name no value, so an image never reaches an error or a log.
function checkImages(messages: ChatRequest["messages"], limits: ChatLimits, ctx: z.RefinementCtx): void {
  let total = 0;
  messages.forEach((m, index) => {
    if (typeof m.content === "string") return;
    const path = ["messages", index, "content"];
    const images = contentImages(m.content);
    if (m.role !== "user" && images.length > 0) {
      ctx.addIssue({ code: "custom", path, message: "Only your own messages can carry images." });
    }
    if (images.length > limits.maxImagesPerMessage) {
      ctx.addIssue({ code: "custom", path, message: `A message can have at most ${limits.maxImagesPerMessage} images.` });
    }
    if (contentText(m.content).length > limits.maxMessageChars) {
      ctx.addIssue({ code: "custom", path, message: `A message can have at most ${limits.maxMessageChars.toLocaleString("en-US")} characters.` });
    }
    for (const image of images) {
      const parsed = parseImageDataUrl(image.url);
      if (!parsed) {
        ctx.addIssue({ code: "custom", path, message: "An image must be a PNG, JPEG, WebP or GIF sent as a base64 data URL." });
      } else if (parsed.bytes > limits.maxImageBytes) {
        ctx.addIssue({ code: "custom", path, message: `An image can be at most ${formatMiB(limits.maxImageBytes)}.` });
      }
    }
    total += images.length;
  });
  if (total > limits.maxImagesPerRequest) {
    ctx.addIssue({ code: "custom", path: ["messages"], message: `A chat request can carry at most ${limits.maxImagesPerRequest} images.` });
  }
}

function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB`;
}

export function maxChatBodyBytes(limits: ChatLimits): number {
  return limits.maxRequestBytes;
}
