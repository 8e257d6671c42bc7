import "server-only";
import { AppError } from "@/lib/shared/errors";
import { getConfig, type Config, type LlmProviderKind, type LlmRoute } from "@/lib/server/config";
import { createDevelopmentProvider } from "./development";
import { createGroqProvider } from "./groq";
import { findModel, MODELS, privacyClassOf, type ModelChoice, type ModelCode, type ModelDescriptor, type ModelTier, type PrivacyClass } from "@/lib/shared/llm/models";
import { createOpenAiCompatibleProvider } from "./openai-compatible";
import type { LlmProvider } from "@/lib/shared/llm/types";
import { confidentialProviderName } from "@/lib/server/config-confidential";

/**
 * The provider side of the model table (./models.ts), server-only: provider ids, base URLs and keys
 * never reach the browser. Each model's `tier` has its own route (lib/server/config.ts `llmRoutes`:
 * LLM_BASIC_* / LLM_PRO_*, else the default provider), so Basic can go to Groq while Pro goes to an
 * attested confidential-computing server speaking the OpenAI protocol (docs/providers.md).
 */

/** A public model code the model table does not know: AppError "bad_request:model". */
export const unknownModel = () => new AppError("bad_request:model", "Unknown model code.");

/** One kind of provider: how the product names it and how its client is made. */
interface ProviderDescriptor {
  /** The chat page's label for it (shown while the development responder answers). */
  label: string;
  /** Its name on /privacy when the operator configured none (LLM_PROVIDER_NAME, LLM_<TIER>_PROVIDER_NAME). */
  name: string;
  /** What it keeps, when the operator stated nothing (LLM_RETENTION, LLM_<TIER>_RETENTION); null: unknown. */
  retention: string | null;
  create: (route: LlmRoute, config: Config) => LlmProvider;
}

/** The provider descriptor table. */
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

/** The settings of each tier that are not part of its route (lib/server/config.ts). */
const TIER_SETTINGS: Record<ModelTier, { modelId: "LLM_MODEL_BASIC" | "LLM_MODEL_PRO"; contextTokens: "LLM_BASIC_CONTEXT_TOKENS" | "LLM_PRO_CONTEXT_TOKENS" }> = {
  basic: { modelId: "LLM_MODEL_BASIC", contextTokens: "LLM_BASIC_CONTEXT_TOKENS" },
  pro: { modelId: "LLM_MODEL_PRO", contextTokens: "LLM_PRO_CONTEXT_TOKENS" },
};

/** The row of a public code. @throws AppError "bad_request:model" */
export function modelOf(code: string): ModelDescriptor {
  const model = findModel(code);
  if (!model) throw unknownModel();
  return model;
}

/** The tier of a public model code. @throws AppError "bad_request:model" */
export function modelTier(code: string): ModelTier {
  return modelOf(code).tier;
}

/**
 * The provider's model id for a public code, from LLM_MODEL_BASIC / LLM_MODEL_PRO
 * (defaults openai/gpt-oss-20b and openai/gpt-oss-120b). @throws AppError "bad_request:model"
 */
export function providerModelId(code: string): string {
  return getConfig()[TIER_SETTINGS[modelTier(code)].modelId];
}

/**
 * The input budget of a public model code in tokens: LLM_BASIC_CONTEXT_TOKENS / LLM_PRO_CONTEXT_TOKENS,
 * else the table's `contextTokens`. @throws AppError "bad_request:model"
 */
export function contextBudgetTokens(code: string, config: Config = getConfig()): number {
  const model = modelOf(code);
  return config[TIER_SETTINGS[model.tier].contextTokens] ?? model.contextTokens;
}

/** The route (provider kind, base URL, name, retention statement) serving a public model code. */
export function routeFor(code: string): LlmRoute {
  return getConfig().llmRoutes[modelTier(code)];
}

/**
 * The privacy class of a public model code: "confidential" when CONFIDENTIAL_MODELS lists it and an
 * enclave is configured (lib/server/config.ts `confidential`; docs/confidential-inference.md), else "standard".
 */
export function modelPrivacy(code: string, config: Config = getConfig()): PrivacyClass {
  return privacyClassOf(code, config.confidential?.models ?? []);
}

/**
 * Whether a public model code reads images: the table's `vision`, or LLM_VISION_MODELS lists it
 * (the operator configured a vision model behind it). @throws AppError "bad_request:model"
 */
export function modelReadsImages(code: string, config: Config = getConfig()): boolean {
  return modelOf(code).vision || (config.visionModels as readonly string[]).includes(code);
}

/**
 * Whether a public model code calls functions (OpenAI `tools`): the table's `functionCalling`, unless
 * LLM_NO_FUNCTION_CALLING_MODELS lists it. False for a code outside the table.
 */
export function modelCallsFunctions(code: string, config: Config = getConfig()): boolean {
  const model = findModel(code);
  return Boolean(model?.functionCalling) && !(config.noFunctionCallingModels as readonly string[]).includes(code);
}

/** The model table's public columns for the picker, in table order, with each model's privacy class. */
export function modelChoices(): ModelChoice[] {
  return MODELS.map(({ code, title, description, plan }) => ({ code, title, description, plan, privacy: modelPrivacy(code), vision: modelReadsImages(code), functionCalling: modelCallsFunctions(code) }));
}

/** The label of a provider kind (default: the configured default provider), e.g. "Groq". */
export function providerLabel(kind: LlmProviderKind = getConfig().llmProvider): string {
  return PROVIDERS[kind].label;
}

/** Who serves one model, for /privacy and the product's "what Hush can see" texts. */
export interface ModelProviderInfo {
  code: ModelCode;
  /** The model's public title ("Basic", "Pro"). */
  title: string;
  privacy: PrivacyClass;
  kind: LlmProviderKind;
  providerName: string;
  /** The operator's statement of what the provider keeps (LLM_<TIER>_RETENTION / LLM_RETENTION), or null. */
  retention: string | null;
}

/** Every model of the table with the provider that serves it, in table order. */
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
      // A confidential model is answered by the enclave at CONFIDENTIAL_BASE_URL, not by its LLM_* route.
      providerName: privacy === "confidential" ? confidentialProviderName(config.confidential!) : (route.providerName ?? provider.name),
      retention: route.retention ?? provider.retention,
    };
  });
}

let cached: { config: Config; providers: Map<ModelTier, LlmProvider> } | undefined;

/**
 * The provider client for a public model code, one instance per tier and parsed config (so HTTP
 * keep-alive connections are reused).
 * @throws AppError "bad_request:model" for a code outside the model table; Error for the development responder in production.
 */
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
