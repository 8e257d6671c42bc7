import "server-only";
import { getConfig } from "@/lib/config";
import { findModel, type ModelCode } from "@/config/models";

/** Which setting holds the provider model id behind each public code (spec §9; lib/config.ts). */
const PROVIDER_MODEL_SETTING: Record<ModelCode, "LLM_MODEL_BASIC" | "LLM_MODEL_PRO"> = {
  "llama3-8b-8192": "LLM_MODEL_BASIC",
  "llama3-70b-8192": "LLM_MODEL_PRO",
};

/** A public model code the catalogue does not know. */
export class UnknownModelError extends Error {
  constructor() {
    super("Unknown model code.");
    this.name = "UnknownModelError";
  }
}

/**
 * The provider's model id for a public code, from LLM_MODEL_BASIC / LLM_MODEL_PRO
 * (defaults openai/gpt-oss-20b and openai/gpt-oss-120b). Server-only: ids stay out of the client bundle.
 * @throws UnknownModelError for a code outside config/models.ts
 */
export function providerModelId(code: string): string {
  const model = findModel(code);
  if (!model) throw new UnknownModelError();
  return getConfig()[PROVIDER_MODEL_SETTING[model.code]];
}
