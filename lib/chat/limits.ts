import "server-only";
import { getConfig } from "@/lib/config";
import type { ChatLimits } from "./schema";

/** The chat request limits from config (CHAT_MAX_MESSAGES, CHAT_MAX_MESSAGE_CHARS, PDF_MAX_BYTES). */
export function chatLimits(): ChatLimits {
  const c = getConfig();
  return { maxMessages: c.CHAT_MAX_MESSAGES, maxMessageChars: c.CHAT_MAX_MESSAGE_CHARS, maxFileBytes: c.PDF_MAX_BYTES };
}
