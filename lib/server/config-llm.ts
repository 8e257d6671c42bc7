import { DEVICE_TOOL_NAMES, RUN_CODE_TOOL_NAME, type DeviceToolName } from "@/lib/shared/llm/device-tools";
import "server-only";
import type { LlmProviderKind } from "@/lib/shared/llm/types";
import { isModelCode, MODEL_CODES, type ModelCode } from "@/lib/shared/llm/models";
import { ConfigError, type Env } from "./config-env";

export type { LlmProviderKind };

/** Where one model tier's requests go. */
export interface LlmRoute {
  kind: LlmProviderKind;
  /** With /v1 (for Groq, the API origin); unset: the provider's default. */
  baseUrl?: string;
  apiKey?: string;
  /** As /privacy shows it; null: the provider kind's own name. */
  providerName: string | null;
  /** What that provider keeps, per the operator; null: none configured. */
  retention: string | null;
}

/** @throws ConfigError naming an unknown code */
export function visionModels(env: Env): ModelCode[] {
  const listed = (env.LLM_VISION_MODELS ?? "").split(",").map((c) => c.trim()).filter(Boolean);
  const unknown = listed.filter((c) => !isModelCode(c));
  if (unknown.length) {
    throw new ConfigError(`LLM_VISION_MODELS: unknown model code ${unknown.join(", ")} (known: ${MODEL_CODES.join(", ")}). See .env.example.`);
  }
  return MODEL_CODES.filter((c) => listed.includes(c));
}

/** In table order (run_code is offered by the composer). @throws ConfigError naming an unknown tool */
export function deviceTools(env: Env): DeviceToolName[] {
  const known = DEVICE_TOOL_NAMES.filter((c) => c !== RUN_CODE_TOOL_NAME);
  const listed = (env.CHAT_DEVICE_TOOLS ?? "").split(",").map((c) => c.trim()).filter(Boolean);
  const unknown = listed.filter((c) => !(known as readonly string[]).includes(c));
  if (unknown.length) throw new ConfigError(`CHAT_DEVICE_TOOLS: unknown tool ${unknown.join(", ")} (known: ${known.join(", ")}; run_code is CODE_EXECUTION's). See .env.example.`);
  return known.filter((c) => listed.includes(c));
}

/** @throws ConfigError naming an unknown code */
export function noFunctionCallingModels(env: Env): ModelCode[] {
  const listed = (env.LLM_NO_FUNCTION_CALLING_MODELS ?? "").split(",").map((c) => c.trim()).filter(Boolean);
  const unknown = listed.filter((c) => !isModelCode(c));
  if (unknown.length) {
    throw new ConfigError(`LLM_NO_FUNCTION_CALLING_MODELS: unknown model code ${unknown.join(", ")} (known: ${MODEL_CODES.join(", ")}). See .env.example.`);
  }
  return MODEL_CODES.filter((c) => listed.includes(c));
}

/** Its own LLM_<TIER>_* settings, else the default provider's. */
export function llmRoute(env: Env, defaultKind: LlmProviderKind, tier: "BASIC" | "PRO"): LlmRoute {
  const baseUrl = env[`LLM_${tier}_BASE_URL`];
  if (baseUrl) {
    return {
      kind: "openai-compatible",
      baseUrl,
      apiKey: env[`LLM_${tier}_API_KEY`],
      providerName: env[`LLM_${tier}_PROVIDER_NAME`] ?? new URL(baseUrl).host,
      retention: env[`LLM_${tier}_RETENTION`] ?? null,
    };
  }
  const own = { providerName: env[`LLM_${tier}_PROVIDER_NAME`], retention: env[`LLM_${tier}_RETENTION`] };
  const shared = {
    providerName: own.providerName ?? env.LLM_PROVIDER_NAME ?? null,
    retention: own.retention ?? env.LLM_RETENTION ?? null,
  };
  switch (defaultKind) {
    case "groq":
      return { kind: "groq", baseUrl: env.GROQ_BASE_URL, apiKey: env.GROQ_API_KEY, ...shared };
    case "openai-compatible": {
      const providerName = own.providerName ?? env.LLM_PROVIDER_NAME ?? (env.LLM_BASE_URL ? new URL(env.LLM_BASE_URL).host : shared.providerName);
      return { kind: "openai-compatible", baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, ...shared, providerName };
    }
    case "development":
      return { kind: "development", ...shared };
  }
}
