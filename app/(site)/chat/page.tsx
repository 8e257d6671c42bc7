import type { Metadata } from "next";
import { connection } from "next/server";
import { ChatScreen } from "./chat-screen";
import { ConfidentialProvider } from "@/components/confidential/confidential-context";
import { WebSearchProvider } from "@/components/chat/web-search-context";
import { DictationProvider } from "@/components/chat/dictation-context";
import { getConfig } from "@/lib/server/config";
import { DEFAULT_MODEL_CODE, modelChoices, providerLabel } from "@/lib/server/llm";
import { confidentialPublicConfig, modelPrivacyLines } from "@/lib/server/llm/confidential-models";

export const metadata: Metadata = {
  title: "Chat",
  robots: { index: false, follow: false },
};

/** /chat (docs/product.md §2): rendered per request because the provider notice depends on run-time config. */
export default async function ChatPage() {
  await connection();
  const config = getConfig();
  return (
    <ConfidentialProvider value={{ config: confidentialPublicConfig(config), privacy: modelPrivacyLines(config) }}>
      <WebSearchProvider value={{ standardEngine: config.search?.host ?? null }}>
        <DictationProvider
          value={{ standardProvider: config.stt?.providerName ?? null, maxSeconds: config.STT_MAX_SECONDS, timeoutMs: config.STT_TIMEOUT_MS + 15_000 }}
        >
          <ChatScreen
            models={modelChoices()}
            defaultModel={DEFAULT_MODEL_CODE}
            pdfLimits={{
              maxBytes: config.PDF_MAX_BYTES,
              maxPages: config.PDF_MAX_PAGES,
              maxChars: config.PDF_MAX_TEXT_CHARS,
              timeoutMs: config.PDF_PARSE_TIMEOUT_MS,
              maxInflatedBytes: config.PDF_MAX_INFLATED_BYTES,
            }}
            providerNotice={config.llmProvider === "development" ? providerLabel("development") : null}
            deviceTools={config.deviceTools}
            codeExecution={config.codeExecution}
          />
        </DictationProvider>
      </WebSearchProvider>
    </ConfidentialProvider>
  );
}
