"use client";

import { useCallback, useState } from "react";
import type { ContextReport, ConversationDocument, SendChatResult } from "@/lib/chat/client";

/**
 * The current conversation's documents and context report, kept in the browser for the conversation's
 * life (issue 8: follow-up questions keep the document). Each answered turn adds its PDF's extracted
 * text (the response's `document`); every later send carries them back as `documents`. A new chat clears
 * them; a reopened saved chat starts from the documents stored with it (`reset(documents)`).
 * Nothing here is persisted: visitors' documents vanish with the tab.
 */
export function useConversationDocuments() {
  const [documents, setDocuments] = useState<ConversationDocument[]>([]);
  const [context, setContext] = useState<ContextReport | null>(null);

  /** Take a successful turn's result: keep its document, remember what the budget left out. */
  const onResult = useCallback((result: Pick<SendChatResult, "document" | "context">) => {
    const doc = result.document;
    if (doc) setDocuments((current) => [...current, { name: doc.name, text: doc.text }]);
    setContext(result.context ?? null);
  }, []);

  /** Start over (New chat), or with a reopened chat's documents. */
  const reset = useCallback((initial: ConversationDocument[] = []) => {
    setDocuments(initial);
    setContext(null);
  }, []);

  return { documents, context, onResult, reset };
}

/** The line the chat shows when older content was left out, or null when everything reached the model. */
export function contextNotice(report: ContextReport | null): string | null {
  if (!report) return null;
  const parts: string[] = [];
  if (report.omitted_messages > 0) {
    parts.push(`${report.omitted_messages} message${report.omitted_messages === 1 ? "" : "s"}`);
  }
  if (report.omitted_documents > 0) {
    parts.push(`${report.omitted_documents} document${report.omitted_documents === 1 ? "" : "s"}`);
  }
  const sentences: string[] = [];
  const single = report.omitted_messages + report.omitted_documents === 1;
  if (parts.length > 0) {
    sentences.push(`Older content was left out to fit the model's limit: the earliest ${parts.join(" and ")} of this chat ${single ? "was" : "were"} not sent to the model.`);
  }
  if (report.latest_message_cut) sentences.push("Your last message was too long for the model, so its middle was left out.");
  return sentences.length > 0 ? sentences.join(" ") : null;
}
