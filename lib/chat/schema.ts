import { z } from "zod";

/**
 * The chat call's body (spec §7): messages, model (code), file (name, type, content as a data URL,
 * or null), chat_id, save_chat. Limits come from config (CHAT_MAX_MESSAGES, CHAT_MAX_MESSAGE_CHARS,
 * PDF_MAX_BYTES) so the schema is built per call.
 */
export interface ChatLimits {
  maxMessages: number;
  maxMessageChars: number;
  maxFileBytes: number;
}

export const roleSchema = z.enum(["user", "assistant", "system"]);
export type Role = z.infer<typeof roleSchema>;

/** Build the request schema for the given limits. */
export function chatRequestSchema(limits: ChatLimits) {
  // A data URL carries base64: 4 characters per 3 bytes, plus a short header.
  const maxDataUrlChars = Math.ceil((limits.maxFileBytes * 4) / 3) + 256;
  const message = z.object({
    role: roleSchema,
    content: z.string().max(limits.maxMessageChars, `A message can have at most ${limits.maxMessageChars.toLocaleString("en-US")} characters.`),
  });
  return z
    .object({
      messages: z
        .array(message)
        .min(1, "Send at least one message.")
        .max(limits.maxMessages, `A chat request can carry at most ${limits.maxMessages} messages.`),
      model: z.string().min(1).max(100),
      file: z
        .object({
          name: z.string().trim().min(1).max(255),
          type: z.string().max(255),
          content: z.string().max(maxDataUrlChars, `The file is too large (limit ${Math.floor(limits.maxFileBytes / (1024 * 1024))} MB).`),
        })
        .nullable()
        .optional(),
      chat_id: z.string().max(100).nullable().optional(),
      save_chat: z.boolean().optional(),
    })
    .superRefine((body, ctx) => {
      const last = body.messages.at(-1);
      if (!last || last.role !== "user" || last.content.trim() === "") {
        ctx.addIssue({ code: "custom", path: ["messages"], message: "The last message must be a non-empty user message." });
      }
    });
}

export type ChatRequest = z.infer<ReturnType<typeof chatRequestSchema>>;

/** Upper bound of a chat request body in bytes: the file plus every message at its limit (UTF-8). */
export function maxChatBodyBytes(limits: ChatLimits): number {
  return Math.ceil((limits.maxFileBytes * 4) / 3) + limits.maxMessages * (limits.maxMessageChars * 3 + 64) + 64 * 1024;
}
