"use client";

import { useCallback, useEffect, useRef } from "react";
import { useConfidential } from "@/components/confidential/confidential-context";
import { turnSender } from "@/components/confidential/send-turn";
import { generateTitle } from "@/lib/browser/chat/generated-title";
import type { useChatHistory } from "./use-chat-history";

/**
 * `nameChat` asks the chat's own model, by the chat's own path, to name a newly saved chat, stored like a rename.
 * Nothing changes when generation fails, the user renamed the chat meanwhile, or the chat is gone.
 */
export function useGeneratedTitle(history: ReturnType<typeof useChatHistory>) {
  const confidential = useConfidential().config;
  // The list as it is when the title arrives, not as it was when the chat was saved.
  const latest = useRef(history);
  useEffect(() => {
    latest.current = history;
  });
  return useCallback(
    (input: { chatId: string; model: string; question: string; answer: string; fallback: string | null }) => {
      void generateTitle({ send: turnSender(confidential, input.model), model: input.model, question: input.question, answer: input.answer }).then((title) => {
        if (!title || title === input.fallback) return;
        const entry = latest.current.chats.find((c) => c.chat_id === input.chatId);
        if (!entry || entry.display_name !== input.fallback) return;
        void latest.current.rename(input.chatId, title);
      });
    },
    [confidential],
  );
}
