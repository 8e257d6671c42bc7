import "server-only";
import { getConfig } from "@/lib/config";
import type { ChatLimits } from "./schema";

/**
 * The chat request's abuse bounds from config: CHAT_MAX_MESSAGES, CHAT_MAX_MESSAGE_CHARS, PDF_MAX_BYTES,
 * CHAT_MAX_DOCUMENTS, PDF_MAX_TEXT_CHARS (a document is at most what extraction keeps), CHAT_MAX_REQUEST_BYTES.
 */
export function chatLimits(): ChatLimits {
  const c = getConfig();
  return {
    maxMessages: c.CHAT_MAX_MESSAGES,
    maxMessageChars: c.CHAT_MAX_MESSAGE_CHARS,
    maxFileBytes: c.PDF_MAX_BYTES,
    maxDocuments: c.CHAT_MAX_DOCUMENTS,
    maxDocumentChars: c.PDF_MAX_TEXT_CHARS,
    maxRequestBytes: c.CHAT_MAX_REQUEST_BYTES,
  };
}
