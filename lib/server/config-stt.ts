import "server-only";
import type { Env } from "./config-env";

/** Standard models' transcription provider, from the STT_* settings with Groq's as the fallback. */
export interface SttSettings {
  kind: "groq" | "openai-compatible";
  /** groq: an origin; openai-compatible: a base URL with /v1. */
  baseUrl?: string;
  apiKey?: string;
  model: string;
  providerName: string;
}

/** Null when dictation is off for standard models. */
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
