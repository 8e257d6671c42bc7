import "server-only";
import { getConfig, type Config } from "@/lib/server/config";
import { chatRequestSchema, maxChatBodyBytes, type ChatLimits } from "@/lib/shared/chat/turn-schema";

/** The chat request's abuse bounds from config (CHAT_MAX_*, PDF_MAX_TEXT_CHARS). */
export function chatLimits(): ChatLimits {
  const c = getConfig();
  return {
    maxMessages: c.CHAT_MAX_MESSAGES,
    maxMessageChars: c.CHAT_MAX_MESSAGE_CHARS,
    maxDocuments: c.CHAT_MAX_DOCUMENTS,
    maxDocumentChars: c.PDF_MAX_TEXT_CHARS,
    maxRequestBytes: c.CHAT_MAX_REQUEST_BYTES,
    maxImagesPerMessage: c.CHAT_MAX_IMAGES_PER_MESSAGE,
    maxImagesPerRequest: c.CHAT_MAX_IMAGES,
    maxImageBytes: c.CHAT_MAX_IMAGE_BYTES,
  };
}

let cached: { config: Config; schema: ReturnType<typeof chatRequestSchema>; maxBytes: number } | undefined;

/** The chat body's schema and size bound, built once per parsed config (building a schema costs more than using it). */
export function chatRequestFor(): { schema: ReturnType<typeof chatRequestSchema>; maxBytes: number } {
  const config = getConfig();
  if (cached?.config !== config) {
    const limits = chatLimits();
    cached = { config, schema: chatRequestSchema(limits), maxBytes: maxChatBodyBytes(limits) };
  }
  return cached;
}
