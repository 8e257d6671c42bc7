import "server-only";
import { isModelCode, MODEL_CODES, type ModelCode } from "@/lib/shared/llm/models";
import { ConfigError, LOOPBACK_HOSTS, type Env } from "./config-env";

export interface ConfidentialSettings {
  /** The only place the relay sends requests. */
  origin: string;
  host: string;
  /** CONFIDENTIAL_API_KEY_<TIER>, else CONFIDENTIAL_API_KEY. */
  apiKeys: Record<ModelCode, string | null>;
  models: ModelCode[];
  enclaveModels: Record<ModelCode, string>;
  trust: "production" | "development";
  /** Whose signed releases hold the code measurement (production trust). */
  configRepo: string | null;
  embedded: boolean;
}

/**
 * CONFIDENTIAL_* as settings, or null (the embedded development enclave without any provider in development).
 * @throws ConfigError for a bad origin, insecure http in production, an unknown model, or a trust setting refused.
 */
export function confidentialSettings(env: Env, starting: boolean): ConfidentialSettings | null {
  const anyProvider = Boolean(
    env.GROQ_API_KEY || env.LLM_BASE_URL || env.LLM_BASIC_BASE_URL || env.LLM_PRO_BASE_URL || env.CONFIDENTIAL_BASE_URL,
  );
  const embedded = env.NODE_ENV === "development" && !anyProvider;
  const baseUrl = env.CONFIDENTIAL_BASE_URL ?? (embedded ? `http://127.0.0.1:${env.ENCLAVE_PORT}` : undefined);
  if (!baseUrl) {
    if (env.CONFIDENTIAL_MODELS) throw new ConfigError("CONFIDENTIAL_MODELS is set but CONFIDENTIAL_BASE_URL is missing. See .env.example.");
    return null;
  }
  const url = new URL(baseUrl);
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username || url.password) {
    throw new ConfigError("CONFIDENTIAL_BASE_URL must be an origin only, like https://enclave.example.com (no path, query or credentials). See .env.example.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ConfigError("CONFIDENTIAL_BASE_URL must be an https:// URL. See .env.example.");
  if (env.NODE_ENV === "production" && url.protocol !== "https:" && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new ConfigError("CONFIDENTIAL_BASE_URL must be an https:// URL in production (except on loopback). See .env.example.");
  }
  const listed = (env.CONFIDENTIAL_MODELS ?? "").split(",").map((c) => c.trim()).filter(Boolean);
  const unknown = listed.filter((c) => !isModelCode(c));
  if (unknown.length) {
    throw new ConfigError(`CONFIDENTIAL_MODELS: unknown model code ${unknown.join(", ")} (known: ${MODEL_CODES.join(", ")}). See .env.example.`);
  }
  const models = listed.length ? MODEL_CODES.filter((c) => listed.includes(c)) : [...MODEL_CODES];
  const trust = env.CONFIDENTIAL_TRUST ?? (embedded ? "development" : "production");
  if (trust === "production" && !env.CONFIDENTIAL_CONFIG_REPO) {
    throw new ConfigError(
      "CONFIDENTIAL_TRUST=production needs CONFIDENTIAL_CONFIG_REPO (the GitHub repository whose signed releases hold the enclave's measurement). See .env.example.",
    );
  }
  if (starting && trust === "development" && env.CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION !== "1") {
    throw new ConfigError(
      "CONFIDENTIAL_TRUST=development is refused in production: the browser would accept the development enclave, " +
        "whose key anyone can hold. Set CONFIDENTIAL_TRUST=production, or CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION=1 " +
        "for a test instance. See .env.example.",
    );
  }
  return {
    origin: url.origin,
    host: url.host,
    apiKeys: {
      "llama3-8b-8192": env.CONFIDENTIAL_API_KEY_BASIC ?? env.CONFIDENTIAL_API_KEY ?? null,
      "llama3-70b-8192": env.CONFIDENTIAL_API_KEY_PRO ?? env.CONFIDENTIAL_API_KEY ?? null,
    },
    models,
    enclaveModels: {
      "llama3-8b-8192": env.CONFIDENTIAL_MODEL_BASIC ?? env.LLM_MODEL_BASIC,
      "llama3-70b-8192": env.CONFIDENTIAL_MODEL_PRO ?? env.LLM_MODEL_PRO,
    },
    trust,
    configRepo: env.CONFIDENTIAL_CONFIG_REPO ?? null,
    embedded,
  };
}

/** As /privacy names it. */
export function confidentialProviderName(settings: Pick<ConfidentialSettings, "host" | "embedded">): string {
  return settings.embedded ? `Hush's development enclave, in this server's process (${settings.host})` : settings.host;
}
