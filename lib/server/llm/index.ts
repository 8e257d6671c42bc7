import "server-only";
import { DEFAULT_MODEL_CODE } from "@/lib/shared/llm/models";
import { providerForModel } from "./providers";
import type { LlmProvider } from "@/lib/shared/llm/types";

export { LlmError, isLlmError, type LlmErrorKind } from "./errors";
export { buildModelMessages, SYSTEM_PROMPT, type HistoryMessage, type ModelAttachment } from "@/lib/shared/llm/prompt";
export { DEFAULT_MODEL_CODE, findModel, MODELS, type ModelChoice, type ModelCode, type ModelDescriptor, type PrivacyClass } from "@/lib/shared/llm/models";
export {
  contextBudgetTokens,
  modelChoices,
  modelOf,
  modelPrivacy,
  modelProviders,
  modelCallsFunctions,
  modelReadsImages,
  modelTier,
  providerLabel,
  providerModelId,
  routeFor,
  unknownModel,
  type ModelProviderInfo,
} from "./providers";
export { estimateTokens, fitContext, type ContextReport, type FittedContext } from "@/lib/shared/llm/fit-context";
export type { LlmEvent, LlmMessage, LlmProvider, LlmProviderKind, LlmRequest, LlmUsage } from "@/lib/shared/llm/types";

/** The provider for a public model code (default: Basic). @throws AppError "bad_request:model" */
export function getLlmProvider(code: string = DEFAULT_MODEL_CODE): LlmProvider {
  return providerForModel(code);
}
