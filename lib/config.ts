import "server-only";
import path from "node:path";
import { z } from "zod";

/**
 * The one place environment variables are read (create-t3-app style). Every other module calls
 * `getConfig()`; nothing else touches `process.env` for settings. `.env.example` documents each key.
 *
 * Development and test: embedded defaults apply (PGlite under DATA_DIR, a generated master key,
 * the built-in development responder) and `describeDefaults()` names the ones in use.
 * Production: a missing secret throws a `ConfigError` that names it, so start-up stops.
 */

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** Public origin of the app, used for absolute URLs and the same-origin check. */
  APP_URL: z.string().url().default("http://localhost:3000"),
  /** Folder for embedded state: the PGlite database and the development master key. */
  DATA_DIR: z.string().default(".data"),
  /** PostgreSQL connection string; unset means the embedded PGlite database under DATA_DIR. */
  DATABASE_URL: optionalString,
  /** 32 random bytes, base64: the key-encryption key that wraps every user's data key. */
  ENCRYPTION_MASTER_KEY: optionalString,
  /** The previous master key while `npm run keys:rotate` re-wraps data keys under the new one. */
  ENCRYPTION_MASTER_KEY_PREVIOUS: optionalString,
  GROQ_API_KEY: optionalString,
  /** Groq API origin; only tests and proxies change it. groq-sdk appends /openai/v1. */
  GROQ_BASE_URL: optionalString,
  /** Any OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio), e.g. http://localhost:11434/v1. */
  LLM_BASE_URL: optionalString,
  LLM_API_KEY: optionalString,
  /** Provider model ids behind the public codes of spec §9 (Groq retired the llama3-* ids in 2025). */
  LLM_MODEL_BASIC: z.string().default("openai/gpt-oss-20b"),
  LLM_MODEL_PRO: z.string().default("openai/gpt-oss-120b"),
  /** Milliseconds without any token from the provider before the request is abandoned. */
  LLM_TIMEOUT_MS: positiveInt(60_000),
  /** Contact address shown in the footer and on /contact ({email} in the spec). */
  CONTACT_EMAIL: z.string().email().default("hello@hush.chat"),
  /** Upper bounds on a chat request (see lib/chat/limits.ts for what each guards). */
  CHAT_MAX_MESSAGES: positiveInt(200),
  CHAT_MAX_MESSAGE_CHARS: positiveInt(32_000),
  PDF_MAX_BYTES: positiveInt(10 * 1024 * 1024),
  PDF_MAX_PAGES: positiveInt(100),
  PDF_MAX_TEXT_CHARS: positiveInt(60_000),
  PDF_PARSE_TIMEOUT_MS: positiveInt(15_000),
});

export type Env = z.infer<typeof envSchema>;

export type LlmProviderKind = "groq" | "openai-compatible" | "development";

export interface Config extends Env {
  isProduction: boolean;
  /** Absolute path of DATA_DIR. */
  dataDir: string;
  database: { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };
  llmProvider: LlmProviderKind;
}

/** A setting is missing or malformed; the message names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Secrets that production refuses to start without. */
const REQUIRED_IN_PRODUCTION = ["ENCRYPTION_MASTER_KEY"] as const;

/**
 * Parse a raw environment into a Config. Pure: tests pass their own object.
 * @throws ConfigError naming each missing or invalid variable.
 */
export function parseConfig(raw: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === "production";
  // `next build` runs with NODE_ENV=production but serves nothing: secrets are checked at start.
  const building = raw.NEXT_PHASE === "phase-production-build";
  if (isProduction && !building) {
    const missing = REQUIRED_IN_PRODUCTION.filter((k) => !env[k]);
    if (!env.GROQ_API_KEY && !env.LLM_BASE_URL) missing.push("GROQ_API_KEY or LLM_BASE_URL" as never);
    if (missing.length) {
      throw new ConfigError(
        `Missing required setting${missing.length > 1 ? "s" : ""} in production: ${missing.join(", ")}. ` +
          "See .env.example.",
      );
    }
  }
  const dataDir = path.resolve(env.DATA_DIR);
  const llmProvider: LlmProviderKind = env.GROQ_API_KEY
    ? "groq"
    : env.LLM_BASE_URL
      ? "openai-compatible"
      : "development";
  return {
    ...env,
    isProduction,
    dataDir,
    database: env.DATABASE_URL
      ? { kind: "postgres", url: env.DATABASE_URL }
      : { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
    llmProvider,
  };
}

let cached: Config | undefined;

/** The process-wide Config, parsed once from process.env. @throws ConfigError */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Forget the parsed Config; tests that change process.env call this. */
export function resetConfigForTests(): void {
  cached = undefined;
}

/** Human-readable list of the embedded defaults in use, for the start-up log. */
export function describeDefaults(config: Config): string[] {
  const notes: string[] = [];
  if (config.database.kind === "pglite") notes.push(`database: embedded PGlite in ${config.database.dataDir}`);
  if (!config.ENCRYPTION_MASTER_KEY) notes.push(`encryption: development master key in ${config.dataDir}`);
  if (config.llmProvider === "development")
    notes.push("LLM: built-in development responder (set GROQ_API_KEY or LLM_BASE_URL for a real model)");
  return notes;
}
