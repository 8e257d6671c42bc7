import "server-only";
import { DEFAULT_MODEL_CODE } from "@/config/models";
import { getConfig, type LlmProviderKind } from "@/lib/config";
import { providerForModel } from "./registry";
import type { LlmProvider } from "./types";

export { LlmError, isLlmError, type LlmErrorKind } from "./errors";
export { buildModelMessages, SYSTEM_PROMPT, type HistoryMessage, type ModelAttachment } from "./prompt";
export { providerModelId, UnknownModelError } from "./models";
export { modelProviders, modelTier, routeFor, type ModelProviderInfo } from "./registry";
export { contextBudgetTokens, estimateTokens, fitContext, type ContextReport, type FittedContext } from "./context";
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

/**
 * The provider for a public model code (default: the Basic model), chosen by the registry
 * (./registry.ts): LLM_<TIER>_BASE_URL for that model, else GROQ_API_KEY → Groq, else LLM_BASE_URL →
 * OpenAI-compatible, else (never in production: config refuses to start) the development responder.
 * @throws UnknownModelError for a code outside config/models.ts
 */
export function getLlmProvider(code: string = DEFAULT_MODEL_CODE): LlmProvider {
  return providerForModel(code);
}
