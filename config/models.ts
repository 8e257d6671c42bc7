/**
 * The model catalogue of spec §9, safe for the client bundle: public codes, titles, descriptions and
 * plans only. The provider model id behind each code is server-side configuration (LLM_MODEL_BASIC,
 * LLM_MODEL_PRO) resolved by `providerModelId()` in lib/llm/models.ts; this file must not import
 * lib/config.ts.
 *
 * The public codes keep the llama3-* names the API has always accepted (spec §7 sends `model: code`),
 * even though Groq retired those provider ids in 2025.
 */

/** Subscription plans a model is offered on (spec §3 Subscription.plan, §9). */
export type ModelPlan = "Free" | "Pro";

/** Public model codes accepted by the chat API (spec §9). */
export const MODEL_CODES = ["llama3-8b-8192", "llama3-70b-8192"] as const;
export type ModelCode = (typeof MODEL_CODES)[number];

/** A model option as the client sees it (spec §3 "Model option: code, title, description, plan"). */
export interface ModelOption {
  readonly code: ModelCode;
  readonly title: string;
  readonly description: string;
  /** The lowest plan that may use the model. */
  readonly plan: ModelPlan;
  /**
   * Input budget in (approximately counted) tokens: system prompt, kept history and documents. The
   * oldest content is left out beyond it (lib/llm/context.ts). Both default provider models
   * (gpt-oss-20b/120b) have a 131,072-token window; the rest is room for the answer. Overridden by
   * LLM_BASIC_CONTEXT_TOKENS / LLM_PRO_CONTEXT_TOKENS for other models.
   */
  readonly contextTokens: number;
}

/** Spec §9: Basic is the default and on the Free plan; Pro needs the Pro plan. */
export const MODEL_OPTIONS: readonly ModelOption[] = [
  { code: "llama3-8b-8192", title: "Basic", description: "For everyday tasks", plan: "Free", contextTokens: 32_000 },
  { code: "llama3-70b-8192", title: "Pro", description: "For advanced tasks", plan: "Pro", contextTokens: 100_000 },
] as const;

/** Spec §9: the Basic model is the default. */
export const DEFAULT_MODEL_CODE: ModelCode = "llama3-8b-8192";

/** True when `code` is one of the public model codes. */
export function isModelCode(code: unknown): code is ModelCode {
  return typeof code === "string" && (MODEL_CODES as readonly string[]).includes(code);
}

/** The option for a public code, or undefined for an unknown code (callers decide: reject or default). */
export function findModel(code: string): ModelOption | undefined {
  return MODEL_OPTIONS.find((m) => m.code === code);
}

/** The default option (spec §9), never undefined. */
export function defaultModel(): ModelOption {
  const model = findModel(DEFAULT_MODEL_CODE);
  if (!model) throw new Error("DEFAULT_MODEL_CODE is missing from MODEL_OPTIONS");
  return model;
}

/** True when a subscriber on `plan` may use `model` (Pro may use everything; Free only Free models). */
export function planAllowsModel(plan: ModelPlan, model: ModelOption): boolean {
  return plan === "Pro" || model.plan === "Free";
}
