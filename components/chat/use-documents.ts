"use client";

import { useCallback, useState } from "react";
import type { ContextReport, ConversationDocument, SendChatResult } from "@/lib/browser/chat/send-turn";

/** The conversation's documents (each later send carries them back) and context report; never persisted here. */
export function useConversationDocuments() {
  const [documents, setDocuments] = useState<ConversationDocument[]>([]);
  const [context, setContext] = useState<ContextReport | null>(null);

  const onResult = useCallback((result: Pick<SendChatResult, "context">, doc: ConversationDocument | null) => {
    // A regenerated answer sends its turn's document again: keep one copy.
    if (doc) setDocuments((current) => (current.some((d) => d.name === doc.name && d.text === doc.text) ? current : [...current, { name: doc.name, text: doc.text }]));
    setContext(result.context ?? null);
  }, []);

  const reset = useCallback((initial: ConversationDocument[] = []) => {
    setDocuments(initial);
    setContext(null);
  }, []);

  return { documents, context, onResult, reset };
}

/** The line shown when older content was left out, or null. */
export function contextNotice(report: ContextReport | null): string | null {
  if (!report) return null;
  const { omitted_messages: messages, omitted_documents: documents } = report;
  const parts: string[] = [];
  if (messages > 0) parts.push(messages === 1 ? "the first message" : `the first ${messages} messages`);
  if (documents > 0) parts.push(documents === 1 ? "the oldest document" : `the ${documents} oldest documents`);
  const sentences: string[] = [];
  if (parts.length > 0) {
    const verb = messages + documents === 1 ? "was" : "were";
    sentences.push(`Older content was left out to fit the model's limit: ${parts.join(" and ")} of this chat ${verb} not sent to the model.`);
  }
  if (report.latest_message_cut) sentences.push("Your last message was too long for the model, so its middle was left out.");
  return sentences.length > 0 ? sentences.join(" ") : null;
}
