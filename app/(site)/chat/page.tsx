import type { Metadata } from "next";
import { connection } from "next/server";
import { ChatApp } from "@/components/chat/chat-app";
import { DEFAULT_MODEL_CODE, MODEL_OPTIONS } from "@/config/models";
import { getConfig } from "@/lib/config";
import { providerLabel } from "@/lib/llm";

export const metadata: Metadata = {
  title: "Chat",
  robots: { index: false, follow: false },
};

/** /chat (spec §2): rendered per request because the provider notice depends on run-time config. */
export default async function ChatPage() {
  await connection();
  const config = getConfig();
  return (
    <ChatApp
      models={MODEL_OPTIONS.map((m) => ({ ...m }))}
      defaultModel={DEFAULT_MODEL_CODE}
      maxFileBytes={config.PDF_MAX_BYTES}
      providerNotice={config.llmProvider === "development" ? providerLabel("development") : null}
    />
  );
}
