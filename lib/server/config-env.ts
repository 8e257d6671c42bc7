import "server-only";
import { DEFAULT_CHAT_LIMITS } from "@/lib/shared/chat/turn-schema";
import { z } from "@/lib/shared/zod";
import { BODY_CEILING_BYTES } from "@/lib/server/body-limits";

// Every setting Hush reads, with its default (docs/configuration.md). Read through getConfig().

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const bodyLimit = (fallback: number) => z.coerce.number().int().positive().max(BODY_CEILING_BYTES).default(fallback);

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  APP_URL: z.string().url().default("http://localhost:3000"),
  /** Other origins of this same app, comma-separated (WebAuthn refuses a bare IP address). */
  EXTRA_ORIGINS: z
    .string()
    .default("")
    .transform((v) => v.split(",").map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.string().url().transform((u) => new URL(u).origin))),
  DATA_DIR: z.string().default(".data"),
  /** MB. */
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(1024).default(16),
  /** `on`: fsync before a commit is acknowledged (docs/security.md "Power cut"). */
  PGLITE_DURABILITY: z.enum(["on", "off"]).default("on"),
  DATABASE_URL: optionalString,
  GROQ_API_KEY: optionalString,
  /** An origin: groq-sdk appends /openai/v1. */
  GROQ_BASE_URL: optionalString,
  LLM_BASE_URL: optionalString,
  LLM_API_KEY: optionalString,
  /** Provider model ids behind the public codes of docs/product.md §9. */
  LLM_MODEL_BASIC: z.string().default("openai/gpt-oss-20b"),
  LLM_MODEL_PRO: z.string().default("openai/gpt-oss-120b"),
  LLM_PROVIDER_NAME: optionalString,
  LLM_RETENTION: optionalString,
  /** A model's own provider, set: docs/providers.md. */
  LLM_BASIC_BASE_URL: optionalString.pipe(z.string().url().optional()),
  LLM_BASIC_API_KEY: optionalString,
  LLM_BASIC_PROVIDER_NAME: optionalString,
  LLM_BASIC_RETENTION: optionalString,
  LLM_PRO_BASE_URL: optionalString.pipe(z.string().url().optional()),
  LLM_PRO_API_KEY: optionalString,
  LLM_PRO_PROVIDER_NAME: optionalString,
  LLM_PRO_RETENTION: optionalString,
  /** Tokens; unset: the model table. */
  LLM_BASIC_CONTEXT_TOKENS: z.coerce.number().int().min(1000).optional(),
  LLM_PRO_CONTEXT_TOKENS: z.coerce.number().int().min(1000).optional(),
  LLM_TIMEOUT_MS: positiveInt(60_000),
  // Confidential inference: docs/confidential-inference.md.
  CONFIDENTIAL_BASE_URL: optionalString.pipe(z.string().url().optional()),
  CONFIDENTIAL_API_KEY: optionalString,
  /** A key restricted to one model, so a tampered Free client cannot get another; unset: CONFIDENTIAL_API_KEY. */
  CONFIDENTIAL_API_KEY_BASIC: optionalString,
  CONFIDENTIAL_API_KEY_PRO: optionalString,
  CONFIDENTIAL_MODELS: optionalString,
  CONFIDENTIAL_TRUST: z.enum(["production", "development"]).optional(),
  CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION: z.enum(["0", "1"]).default("0"),
  CONFIDENTIAL_CONFIG_REPO: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,38}\/[A-Za-z0-9._-]{1,100}$/, "must be a GitHub repository, owner/name")
      .optional(),
  ),
  CONFIDENTIAL_MODEL_BASIC: optionalString,
  CONFIDENTIAL_MODEL_PRO: optionalString,
  CONFIDENTIAL_MAX_REQUEST_BYTES: bodyLimit(16 * 1024 * 1024),
  CONFIDENTIAL_TIMEOUT_MS: positiveInt(60_000),
  CONFIDENTIAL_IDLE_TIMEOUT_MS: positiveInt(60_000),
  CONFIDENTIAL_STREAM_TIMEOUT_MS: positiveInt(600_000),
  CONFIDENTIAL_ATTESTATION_CACHE_SECONDS: positiveInt(300),
  CONFIDENTIAL_MISMATCH_BLOCK_SECONDS: positiveInt(24 * 3600),
  ENCLAVE_PORT: z.coerce.number().int().min(1).max(65535).default(8788),
  /** Least time between passes removing deleted key material from the disk; 0: a pass per deletion. */
  KEY_VACUUM_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  CONTACT_EMAIL: z.string().email().default("hello@hush.chat"),
  /** Abuse bounds; a long conversation is fitted to the context, not refused. */
  CHAT_MAX_MESSAGES: positiveInt(DEFAULT_CHAT_LIMITS.maxMessages),
  CHAT_MAX_MESSAGE_CHARS: positiveInt(DEFAULT_CHAT_LIMITS.maxMessageChars),
  CHAT_MAX_REQUEST_BYTES: bodyLimit(DEFAULT_CHAT_LIMITS.maxRequestBytes),
  CHAT_MAX_DOCUMENTS: positiveInt(DEFAULT_CHAT_LIMITS.maxDocuments),
  /** Unset: none (the default models read text only). */
  LLM_VISION_MODELS: optionalString,
  /** Codes whose model cannot call tools: search takes the user's message as the query. */
  LLM_NO_FUNCTION_CALLING_MODELS: optionalString,
  /** run_code excepted: the "Run code" switch offers it. */
  CHAT_DEVICE_TOOLS: optionalString,
  /** Model calls per user message; the last is offered no tools, so at least 2. */
  CHAT_MAX_TOOL_STEPS: z.coerce.number().int().min(2).max(50).default(8),
  CHAT_MAX_IMAGES_PER_MESSAGE: positiveInt(DEFAULT_CHAT_LIMITS.maxImagesPerMessage),
  /** Groq takes at most 5 a request. */
  CHAT_MAX_IMAGES: positiveInt(DEFAULT_CHAT_LIMITS.maxImagesPerRequest),
  /** Decoded bytes (Groq refuses base64 images over 4 MB: console.groq.com/docs/vision). */
  CHAT_MAX_IMAGE_BYTES: positiveInt(DEFAULT_CHAT_LIMITS.maxImageBytes),
  PDF_MAX_BYTES: positiveInt(10 * 1024 * 1024),
  PDF_MAX_PAGES: positiveInt(100),
  PDF_MAX_TEXT_CHARS: positiveInt(DEFAULT_CHAT_LIMITS.maxDocumentChars),
  PDF_PARSE_TIMEOUT_MS: positiveInt(15_000),
  /** Under 64 MiB, as pdf.js grows a decoder's buffer in powers of two. */
  PDF_MAX_INFLATED_BYTES: positiveInt(50 * 1024 * 1024),

  NEXTAUTH_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  EMAIL_SERVER: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
  ),
  EMAIL_FROM: optionalString,
  EMAIL_SIGNIN_LIMIT_PER_HOUR: positiveInt(5),
  /** From all networks: a minute, so nobody can hold the owner's next link back longer. */
  EMAIL_SIGNIN_MAILBOX_LIMIT_PER_MINUTE: positiveInt(6),
  EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR: positiveInt(20),
  SESSION_IDLE_DAYS: positiveInt(7),
  SESSION_MAX_AGE_DAYS: positiveInt(30),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_ISSUER: z.string().url().default("https://accounts.google.com"),
  /** docs/product.md §2. */
  DESKTOP_APP_REDIRECT_URL: z.string().url().default("hush://auth"),
  /** docs/product.md §7. */
  AUTH_SYNC_URL: optionalString.pipe(z.string().url().optional()),
  AUTH_SYNC_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  REDIS_URL: optionalString,

  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_BASE: optionalString.pipe(z.string().url().optional()),
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: positiveInt(300),
  /** proxy-addr syntax; unset: the socket's peer is the client and forwarded headers are ignored. */
  TRUSTED_PROXIES: optionalString,
  COUNTRY_HEADER: optionalString,
  CLIENT_IP_HEADER: z.string().trim().toLowerCase().default("x-forwarded-for"),
  /** Bits: a home or phone usually gets a whole /64, so one /64 is one client. */
  IPV6_CLIENT_PREFIX: z.coerce.number().int().min(16).max(128).default(64),
  /** Per UTC day: visitors per address, users per account. */
  QUOTA_VISITOR_PER_DAY: positiveInt(10),
  QUOTA_FREE_PER_DAY: positiveInt(50),
  QUOTA_PRO_PER_DAY: positiveInt(1000),
  // Web search and reading a page: docs/web-search.md.
  SEARXNG_URL: optionalString.pipe(z.string().url().optional()),
  SEARCH_TIMEOUT_MS: positiveInt(8000),
  SEARCH_MAX_RESULTS: z.coerce.number().int().min(1).max(20).default(5),
  SEARCH_MAX_RESPONSE_BYTES: positiveInt(2 * 1024 * 1024),
  SEARCH_DEV_PORT: z.coerce.number().int().min(1).max(65535).default(8789),
  SEARCH_PER_DAY_VISITOR: positiveInt(3),
  SEARCH_PER_DAY_FREE: positiveInt(20),
  SEARCH_PER_DAY_PRO: positiveInt(300),
  READ_PAGE_MAX_BYTES: positiveInt(2 * 1024 * 1024),
  READ_PAGE_TIMEOUT_MS: positiveInt(10_000),
  /** ms an HTML page's extraction may take in its worker; past it the worker is terminated. */
  READ_PAGE_EXTRACT_TIMEOUT_MS: positiveInt(5_000),
  READ_PAGE_MAX_CHARS: positiveInt(20_000),
  /** host:port pairs exempt from the public-address rule; the embedded defaults allow the SearXNG stand-in. */
  READ_PAGE_ALLOW_HOSTS: optionalString,
  STT_PROVIDER: optionalString.pipe(z.enum(["groq", "openai-compatible"]).optional()),
  /** For `groq` an origin, else a base URL with /v1. */
  STT_BASE_URL: optionalString.pipe(z.string().url().optional()),
  STT_API_KEY: optionalString,
  STT_MODEL: z.string().trim().min(1).default("whisper-large-v3-turbo"),
  STT_PROVIDER_NAME: optionalString,
  STT_MAX_BYTES: bodyLimit(8 * 1024 * 1024),
  STT_MAX_SECONDS: z.coerce.number().int().min(1).max(600).default(120),
  STT_TIMEOUT_MS: positiveInt(30_000),
  STT_SECONDS_PER_DAY_VISITOR: positiveInt(120),
  STT_SECONDS_PER_DAY_FREE: positiveInt(900),
  STT_SECONDS_PER_DAY_PRO: positiveInt(7200),
  CODE_EXECUTION: z.enum(["on", "off"]).default("on"),
  CODE_TIMEOUT_MS: positiveInt(10_000),
  /** "1": confidential searches also ask the enclave's `pii_check_options`. */
  CONFIDENTIAL_SEARCH_PII_CHECK: z.enum(["0", "1"]).default("0"),
  /** Keep it below the orchestrator's kill timeout. */
  SHUTDOWN_GRACE_SECONDS: positiveInt(25),
});

export type Env = z.infer<typeof envSchema>;

/** A setting is missing or malformed; the message names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Hosts on which plain http is accepted in production. */
export const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
