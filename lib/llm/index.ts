import "server-only";
import { getConfig, type Config, type LlmProviderKind } from "@/lib/config";
import { createDevelopmentProvider } from "./development";
import { createGroqProvider } from "./groq";
import { createOpenAiCompatibleProvider } from "./openai-compatible";
import type { LlmProvider } from "./types";

export { LlmError, isLlmError, type LlmErrorKind } from "./errors";
export { buildModelMessages, SYSTEM_PROMPT, type HistoryMessage, type ModelAttachment } from "./prompt";
export { providerModelId, UnknownModelError } from "./models";
export type { LlmEvent, LlmMessage, LlmProvider, LlmProviderKind, LlmRequest, LlmUsage } from "./types";

/** Human labels for the UI (the chat page shows which kind of model is answering). */
export const PROVIDER_LABELS: Record<LlmProviderKind, string> = {
  groq: "Groq",
  "openai-compatible": "OpenAI-compatible server",
  development: "Development responder (no model configured)",
};

/** The label of the configured provider, e.g. "Development responder (no model configured)". */
export function providerLabel(kind: LlmProviderKind = getConfig().llmProvider): string {
  return PROVIDER_LABELS[kind];
}

let cached: { config: Config; provider: LlmProvider } | undefined;

/**
 * The provider chosen by lib/config.ts: GROQ_API_KEY → Groq; else LLM_BASE_URL → OpenAI-compatible;
 * else (never in production: config refuses to start) the development responder.
 * One instance per parsed config, so HTTP keep-alive connections are reused.
 */
export function getLlmProvider(): LlmProvider {
  const config = getConfig();
  if (cached?.config !== config) cached = { config, provider: createProvider(config) };
  return cached.provider;
}

function createProvider(config: Config): LlmProvider {
  switch (config.llmProvider) {
    case "groq":
      return createGroqProvider(config);
    case "openai-compatible":
      return createOpenAiCompatibleProvider(config);
    case "development":
      if (config.isProduction) throw new Error("No LLM provider configured in production.");
      return createDevelopmentProvider();
  }
}
