import "server-only";
import { findModel, MODEL_OPTIONS, type ModelCode } from "@/config/models";
import { getConfig, type Config, type LlmProviderKind, type LlmRoute, type ModelTier } from "@/lib/config";
import { createDevelopmentProvider } from "./development";
import { createGroqProvider } from "./groq";
import { UnknownModelError } from "./models";
import { createOpenAiCompatibleProvider } from "./openai-compatible";
import type { LlmProvider } from "./types";

/**
 * The provider registry: each public model code (spec §9) has a tier, and each tier its own route
 * (lib/config.ts `llmRoutes`: LLM_BASIC_* / LLM_PRO_*, else the default provider). So Basic can go to
 * Groq while Pro goes to an attested confidential-computing server speaking the OpenAI protocol
 * (docs/providers.md).
 */
const TIER_OF: Record<ModelCode, ModelTier> = {
  "llama3-8b-8192": "basic",
  "llama3-70b-8192": "pro",
};

/** The tier of a public model code. @throws UnknownModelError */
export function modelTier(code: string): ModelTier {
  const model = findModel(code);
  if (!model) throw new UnknownModelError();
  return TIER_OF[model.code];
}

/** The route (provider kind, base URL, name, retention statement) serving a public model code. */
export function routeFor(code: string): LlmRoute {
  return getConfig().llmRoutes[modelTier(code)];
}

/** Who serves one model, for /privacy and the product's "what Hush can see" texts. */
export interface ModelProviderInfo {
  code: ModelCode;
  /** The model's public title ("Basic", "Pro"). */
  title: string;
  kind: LlmProviderKind;
  providerName: string;
  /** The operator's statement of what the provider keeps (LLM_<TIER>_RETENTION / LLM_RETENTION), or null. */
  retention: string | null;
}

/** Every model of the catalogue with the provider that serves it, in catalogue order. */
export function modelProviders(): ModelProviderInfo[] {
  const routes = getConfig().llmRoutes;
  return MODEL_OPTIONS.map((m) => {
    const route = routes[TIER_OF[m.code]];
    return { code: m.code, title: m.title, kind: route.kind, providerName: route.providerName, retention: route.retention };
  });
}

let cached: { config: Config; providers: Map<ModelTier, LlmProvider> } | undefined;

/**
 * The provider client for a public model code, one instance per tier and parsed config (so HTTP
 * keep-alive connections are reused).
 * @throws UnknownModelError for a code outside config/models.ts; Error for the development responder in production.
 */
export function providerForModel(code: string): LlmProvider {
  const config = getConfig();
  if (cached?.config !== config) cached = { config, providers: new Map() };
  const tier = modelTier(code);
  let provider = cached.providers.get(tier);
  if (!provider) {
    provider = createProvider(config.llmRoutes[tier], config);
    cached.providers.set(tier, provider);
  }
  return provider;
}

function createProvider(route: LlmRoute, config: Config): LlmProvider {
  const options = { baseUrl: route.baseUrl, apiKey: route.apiKey, timeoutMs: config.LLM_TIMEOUT_MS };
  switch (route.kind) {
    case "groq":
      return createGroqProvider(options);
    case "openai-compatible":
      return createOpenAiCompatibleProvider(options);
    case "development":
      if (config.isProduction) throw new Error("No LLM provider configured in production.");
      return createDevelopmentProvider();
  }
}
