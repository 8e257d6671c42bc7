import "server-only";
import { getConfig, type Config } from "@/lib/config";
import { chatRequestSchema, maxChatBodyBytes, type ChatLimits } from "./schema";

/** The chat request limits from config (CHAT_MAX_MESSAGES, CHAT_MAX_MESSAGE_CHARS, PDF_MAX_BYTES). */
export function chatLimits(): ChatLimits {
  const c = getConfig();
  return { maxMessages: c.CHAT_MAX_MESSAGES, maxMessageChars: c.CHAT_MAX_MESSAGE_CHARS, maxFileBytes: c.PDF_MAX_BYTES };
}

let cached: { config: Config; schema: ReturnType<typeof chatRequestSchema>; maxBytes: number } | undefined;

/**
 * The chat body's zod schema and size bound for the current config, built once per parsed config
 * rather than per request (building a zod schema costs more than validating a small body; bench/perf).
 */
export function chatRequestFor(): { schema: ReturnType<typeof chatRequestSchema>; maxBytes: number } {
  const config = getConfig();
  if (cached?.config !== config) {
    const limits = chatLimits();
    cached = { config, schema: chatRequestSchema(limits), maxBytes: maxChatBodyBytes(limits) };
  }
  return cached;
}
