/**
 * The model table (docs/product.md §9): the one list of models, read by the model picker, the chat routes, the
 * context budget, /privacy and the docs. Browser-safe (no server-only, no lib/server/config.ts): it holds only
 * public columns. Which provider and provider model id serve a row is server configuration, resolved
 * from its `tier` by ./providers.ts (LLM_MODEL_BASIC, LLM_BASIC_BASE_URL, ...).
 *
 * The public codes keep the llama3-* names the API has always accepted (docs/product.md §7 sends `model: code`),
 * even though Groq retired those provider ids in 2025.
 */

/** Subscription plans a model is offered on (docs/product.md §3 Subscription.plan, §9). */
export type ModelPlan = "Free" | "Pro";

/** The provider route of a model: LLM_<TIER>_* settings (lib/server/config.ts, ./providers.ts). */
export type ModelTier = "basic" | "pro";

/**
 * Who can read a message to the model: "standard" (Hush's server and the provider process it in clear);
 * "confidential" is for models served by an attested enclave the browser encrypts to, derived
 * by `privacyClassOf` from the configured list of such models.
 */
export type PrivacyClass = "standard" | "confidential";

/** One row of the model table. */
export interface ModelDescriptor {
  /** The public code the chat API accepts (docs/product.md §7 `model`). */
  readonly code: string;
  /** The label shown in the picker and on /privacy (docs/product.md §3 Model option `title`). */
  readonly title: string;
  readonly description: string;
  /** The lowest plan that may use the model. */
  readonly plan: ModelPlan;
  /** Which provider route serves it (./providers.ts). */
  readonly tier: ModelTier;
  /**
   * Input budget in (approximately counted) tokens: system prompt, kept history and documents. The
   * oldest content is left out beyond it (./context.ts). Both default provider models
   * (gpt-oss-20b/120b) have a 131,072-token window; the rest is room for the answer. Overridden by
   * LLM_BASIC_CONTEXT_TOKENS / LLM_PRO_CONTEXT_TOKENS for other models.
   */
  readonly contextTokens: number;
  /**
   * Whether the model reads images. Both default provider models
   * (gpt-oss-20b/120b) read text only, so an image attached for them is refused (in the browser and by
   * the chat routes) with a sentence that says the model cannot read images. An operator whose provider
   * model reads images turns it on with LLM_VISION_MODELS (lib/server/llm/providers.ts `modelReadsImages`).
   */
  readonly vision: boolean;
  /**
   * Whether the model calls functions (OpenAI `tools`, docs/issues.md #50): with "Search the web" on it is offered
   * the web-search tool and writes its own queries (lib/server/chat/tool-loop.ts); without, the user's message is
   * the query (lib/shared/search/text.ts queryFromMessage). Both default provider models (Groq's gpt-oss-20b/120b)
   * do; an operator whose model does not turns it off with LLM_NO_FUNCTION_CALLING_MODELS.
   */
  readonly functionCalling: boolean;
}

/** docs/product.md §9: Basic (llama3-8b-8192, Free, the default) and Pro (llama3-70b-8192, Pro). */
export const MODELS = [
  { code: "llama3-8b-8192", title: "Basic", description: "For everyday tasks", plan: "Free", tier: "basic", contextTokens: 32_000, vision: false, functionCalling: true },
  { code: "llama3-70b-8192", title: "Pro", description: "For advanced tasks", plan: "Pro", tier: "pro", contextTokens: 100_000, vision: false, functionCalling: true },
] as const satisfies readonly ModelDescriptor[];

/** Public model codes accepted by the chat API. */
export type ModelCode = (typeof MODELS)[number]["code"];

/** Every public model code, in table order. */
export const MODEL_CODES: readonly ModelCode[] = MODELS.map((m) => m.code);

/** True when `code` is a public model code of the table. */
export function isModelCode(code: string): code is ModelCode {
  return (MODEL_CODES as readonly string[]).includes(code);
}

/** docs/product.md §9: the Basic model is the default. */
export const DEFAULT_MODEL_CODE: ModelCode = "llama3-8b-8192";

/** The row of a public code, or undefined for an unknown code (callers decide: reject or default). */
export function findModel(code: string): ModelDescriptor | undefined {
  return MODELS.find((m) => m.code === code);
}

/**
 * The privacy class of a model: "confidential" when its code is in `confidentialCodes` (docs/issues.md #20 passes
 * the CONFIDENTIAL_MODELS setting), else "standard".
 */
export function privacyClassOf(code: string, confidentialCodes: readonly string[]): PrivacyClass {
  return confidentialCodes.includes(code) ? "confidential" : "standard";
}

/** A model option as the picker gets it (docs/product.md §3 "Model option: code, title, description, plan"), with its privacy class. */
export interface ModelChoice {
  code: string;
  title: string;
  description: string;
  plan: ModelPlan;
  privacy: PrivacyClass;
  /** The model reads images (ModelDescriptor.vision or LLM_VISION_MODELS). */
  vision: boolean;
  /** The model calls functions (ModelDescriptor.functionCalling unless LLM_NO_FUNCTION_CALLING_MODELS): "Run code" is offered only then. */
  functionCalling: boolean;
}
