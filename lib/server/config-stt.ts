import "server-only";
import type { Env } from "./config-env";

/**
 * Where standard models' dictated audio goes (docs/issues.md #52): the transcription provider derived from
 * STT_PROVIDER, STT_BASE_URL, STT_API_KEY, STT_MODEL and STT_PROVIDER_NAME, with Groq's settings as the fallback.
 */
export interface SttSettings {
  kind: "groq" | "openai-compatible";
  /** groq: the API origin (groq-sdk appends /openai/v1); openai-compatible: a base URL with /v1. Unset: Groq's own. */
  baseUrl?: string;
  apiKey?: string;
  model: string;
  /** Named on the Dictate button's tooltip and in the privacy label. */
  providerName: string;
}

/** The transcription provider for standard models, or null when dictation is off for them. */
export function sttSettings(env: Env): SttSettings | null {
  const kind = env.STT_PROVIDER ?? (env.STT_BASE_URL ? "openai-compatible" : env.GROQ_API_KEY ? "groq" : null);
  if (kind === null) return null;
  if (kind === "groq") {
    return {
      kind,
      baseUrl: env.STT_BASE_URL ?? env.GROQ_BASE_URL,
      apiKey: env.STT_API_KEY ?? env.GROQ_API_KEY,
      model: env.STT_MODEL,
      providerName: env.STT_PROVIDER_NAME ?? "Groq",
    };
  }
  if (!env.STT_BASE_URL) return null;
  return { kind, baseUrl: env.STT_BASE_URL, apiKey: env.STT_API_KEY, model: env.STT_MODEL, providerName: env.STT_PROVIDER_NAME ?? new URL(env.STT_BASE_URL).host };
}
