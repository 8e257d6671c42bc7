/**
 * The model table (docs/product.md §9), browser-safe: public columns only; the provider serving a row is resolved from
 * its `tier` by ./providers.ts. The public codes keep the llama3-* names the API accepts (docs/product.md §7).
 */

export type ModelPlan = "Free" | "Pro";

export type ModelTier = "basic" | "pro";

/** "standard": Hush's server and the provider read messages in clear; "confidential": an attested enclave the browser encrypts to. */
export type PrivacyClass = "standard" | "confidential";

export interface ModelDescriptor {
  readonly code: string;
  readonly title: string;
  readonly description: string;
  readonly plan: ModelPlan;
  readonly tier: ModelTier;
  /** Input budget in (approximately counted) tokens; overridden by LLM_BASIC_CONTEXT_TOKENS / LLM_PRO_CONTEXT_TOKENS. */
  readonly contextTokens: number;
  /** Whether the model reads images (else an image for it is refused); LLM_VISION_MODELS turns it on. */
  readonly vision: boolean;
  /** Whether the model calls functions (OpenAI `tools`); LLM_NO_FUNCTION_CALLING_MODELS turns it off. */
  readonly functionCalling: boolean;
}

/** docs/product.md §9: Basic (llama3-8b-8192, Free, the default) and Pro (llama3-70b-8192, Pro). */
export const MODELS = [
  { code: "llama3-8b-8192", title: "Basic", description: "For everyday tasks", plan: "Free", tier: "basic", contextTokens: 32_000, vision: false, functionCalling: true },
  { code: "llama3-70b-8192", title: "Pro", description: "For advanced tasks", plan: "Pro", tier: "pro", contextTokens: 100_000, vision: false, functionCalling: true },
] as const satisfies readonly ModelDescriptor[];

export type ModelCode = (typeof MODELS)[number]["code"];

export const MODEL_CODES: readonly ModelCode[] = MODELS.map((m) => m.code);

export function isModelCode(code: string): code is ModelCode {
  return (MODEL_CODES as readonly string[]).includes(code);
}

export const DEFAULT_MODEL_CODE: ModelCode = "llama3-8b-8192";

/** The row of a public code, or undefined for an unknown code. */
export function findModel(code: string): ModelDescriptor | undefined {
  return MODELS.find((m) => m.code === code);
}

export function privacyClassOf(code: string, confidentialCodes: readonly string[]): PrivacyClass {
  return confidentialCodes.includes(code) ? "confidential" : "standard";
}

export interface ModelChoice {
  code: string;
  title: string;
  description: string;
  plan: ModelPlan;
  privacy: PrivacyClass;
  vision: boolean;
  functionCalling: boolean;
}
