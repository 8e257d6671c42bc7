import "server-only";
import { AppError } from "@/lib/shared/errors";
import { getConfig, type Config, type LlmProviderKind, type LlmRoute } from "@/lib/server/config";
import { createDevelopmentProvider } from "./development";
import { createGroqProvider } from "./groq";
import { findModel, MODELS, privacyClassOf, type ModelChoice, type ModelCode, type ModelDescriptor, type ModelTier, type PrivacyClass } from "@/lib/shared/llm/models";
import { createOpenAiCompatibleProvider } from "./openai-compatible";
import type { LlmProvider } from "@/lib/shared/llm/types";
import { confidentialProviderName } from "@/lib/server/config-confidential";

// The provider side of the model table: provider ids, base URLs and keys never reach the browser (docs/providers.md).

export const unknownModel = () => new AppError("bad_request:model", "Unknown model code.");

interface ProviderDescriptor {
  label: string;
  name: string;
  retention: string | null;
  create: (route: LlmRoute, config: Config) => LlmProvider;
}

const PROVIDERS: Record<LlmProviderKind, ProviderDescriptor> = {
  groq: {
    label: "Groq",
    name: "Groq",
    retention: null,
    create: (route, config) => createGroqProvider({ baseUrl: route.baseUrl, apiKey: route.apiKey, timeoutMs: config.LLM_TIMEOUT_MS }),
  },
  "openai-compatible": {
    label: "OpenAI-compatible server",
    name: "OpenAI-compatible server",
    retention: null,
    create: (route, config) => createOpenAiCompatibleProvider({ baseUrl: route.baseUrl, apiKey: route.apiKey, timeoutMs: config.LLM_TIMEOUT_MS }),
  },
  development: {
    label: "Development responder (no model configured)",
    name: "Hush's built-in development responder",
    retention: "Nothing: it runs inside Hush's server and keeps nothing.",
    create: (_route, config) => {
      if (config.isProduction) throw new Error("No LLM provider configured in production.");
      return createDevelopmentProvider();
    },
  },
};

const TIER_SETTINGS: Record<ModelTier, { modelId: "LLM_MODEL_BASIC" | "LLM_MODEL_PRO"; contextTokens: "LLM_BASIC_CONTEXT_TOKENS" | "LLM_PRO_CONTEXT_TOKENS" }> = {
  basic: { modelId: "LLM_MODEL_BASIC", contextTokens: "LLM_BASIC_CONTEXT_TOKENS" },
  pro: { modelId: "LLM_MODEL_PRO", contextTokens: "LLM_PRO_CONTEXT_TOKENS" },
};

/** @throws AppError "bad_request:model" */
export function modelOf(code: string): ModelDescriptor {
  const model = findModel(code);
  if (!model) throw unknownModel();
  return model;
}

export function modelTier(code: string): ModelTier {
  return modelOf(code).tier;
}

export function providerModelId(code: string): string {
  return getConfig()[TIER_SETTINGS[modelTier(code)].modelId];
}

export function contextBudgetTokens(code: string, config: Config = getConfig()): number {
  const model = modelOf(code);
  return config[TIER_SETTINGS[model.tier].contextTokens] ?? model.contextTokens;
}

export function routeFor(code: string): LlmRoute {
  return getConfig().llmRoutes[modelTier(code)];
}

/** "confidential" when CONFIDENTIAL_MODELS lists the code and an enclave is configured. */
export function modelPrivacy(code: string, config: Config = getConfig()): PrivacyClass {
  return privacyClassOf(code, config.confidential?.models ?? []);
}

export function modelReadsImages(code: string, config: Config = getConfig()): boolean {
  return modelOf(code).vision || (config.visionModels as readonly string[]).includes(code);
}

export function modelCallsFunctions(code: string, config: Config = getConfig()): boolean {
  const model = findModel(code);
  return Boolean(model?.functionCalling) && !(config.noFunctionCallingModels as readonly string[]).includes(code);
}

export function modelChoices(): ModelChoice[] {
  return MODELS.map(({ code, title, description, plan }) => ({ code, title, description, plan, privacy: modelPrivacy(code), vision: modelReadsImages(code), functionCalling: modelCallsFunctions(code) }));
}

export function providerLabel(kind: LlmProviderKind = getConfig().llmProvider): string {
  return PROVIDERS[kind].label;
}

export interface ModelProviderInfo {
  code: ModelCode;
  title: string;
  privacy: PrivacyClass;
  kind: LlmProviderKind;
  providerName: string;
  retention: string | null;
}

export function modelProviders(config: Config = getConfig()): ModelProviderInfo[] {
  const routes = config.llmRoutes;
  return MODELS.map((m) => {
    const route = routes[m.tier];
    const provider = PROVIDERS[route.kind];
    const privacy = modelPrivacy(m.code, config);
    return {
      code: m.code,
      title: m.title,
      privacy,
      kind: route.kind,
      providerName: privacy === "confidential" ? confidentialProviderName(config.confidential!) : (route.providerName ?? provider.name),
      retention: route.retention ?? provider.retention,
    };
  });
}

let cached: { config: Config; providers: Map<ModelTier, LlmProvider> } | undefined;

/** The provider client for a model, one per tier and config. @throws AppError "bad_request:model" */
export function providerForModel(code: string): LlmProvider {
  const config = getConfig();
  if (cached?.config !== config) cached = { config, providers: new Map() };
  const tier = modelTier(code);
  let provider = cached.providers.get(tier);
  if (!provider) {
    const route = config.llmRoutes[tier];
    provider = PROVIDERS[route.kind].create(route, config);
    cached.providers.set(tier, provider);
  }
  return provider;
}
