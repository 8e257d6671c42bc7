import "server-only";
import path from "node:path";
import proxyaddr from "proxy-addr";
import { z } from "@/lib/shared/zod";
import { BODY_CEILING_BYTES } from "@/lib/server/api/body-limits";
import type { ModelTier } from "@/lib/shared/llm/models";
import { isModelCode, MODEL_CODES, type ModelCode } from "@/lib/shared/llm/models";
import { processSlot } from "@/lib/server/process-state";

/**
 * The one place environment variables are read (create-t3-app style). Every other module calls
 * `getConfig()`; nothing else touches `process.env` for settings. `.env.example` documents each key.
 *
 * Development and test: embedded defaults apply (PGlite under DATA_DIR, a generated NEXTAUTH_SECRET,
 * the built-in development responder) and `describeDefaults()` names the ones in use.
 * Production: a missing secret throws a `ConfigError` that names it, so start-up stops.
 */

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** A request body limit in bytes: at most the one ceiling next.config.ts lets through (lib/server/api/body-limits.ts). */
const bodyLimit = (fallback: number) => z.coerce.number().int().positive().max(BODY_CEILING_BYTES).default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** Public origin of the app, used for absolute URLs and the same-origin check. */
  APP_URL: z.string().url().default("http://localhost:3000"),
  /**
   * Other origins at which this same app is served, comma-separated (e.g. http://localhost:3000 when
   * APP_URL says 127.0.0.1): accepted by the same-origin guard and as WebAuthn origins (passkeys are
   * bound to the host name they were made on, and WebAuthn refuses a bare IP address).
   */
  EXTRA_ORIGINS: z
    .string()
    .default("")
    .transform((v) => v.split(",").map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.string().url().transform((u) => new URL(u).origin))),
  /** Folder for embedded state: the PGlite database and the development NEXTAUTH_SECRET. */
  DATA_DIR: z.string().default(".data"),
  /** PostgreSQL connection string; unset means the embedded PGlite database under DATA_DIR. */
  DATABASE_URL: optionalString,
  GROQ_API_KEY: optionalString,
  /** Groq API origin; only tests and proxies change it. groq-sdk appends /openai/v1. */
  GROQ_BASE_URL: optionalString,
  /** Any OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio), e.g. http://localhost:11434/v1. */
  LLM_BASE_URL: optionalString,
  LLM_API_KEY: optionalString,
  /** Provider model ids behind the public codes of docs/product.md §9 (Groq retired the llama3-* ids in 2025). */
  LLM_MODEL_BASIC: z.string().default("openai/gpt-oss-20b"),
  LLM_MODEL_PRO: z.string().default("openai/gpt-oss-120b"),
  /** The default provider's name and what it keeps of a request, in a sentence, for /privacy. */
  LLM_PROVIDER_NAME: optionalString,
  LLM_RETENTION: optionalString,
  /**
   * Per-model provider (lib/server/llm/providers.ts): with LLM_<TIER>_BASE_URL set, that model goes to its own
   * OpenAI-compatible server (e.g. an attested confidential-computing proxy) instead of the default
   * provider above; docs/providers.md.
   */
  LLM_BASIC_BASE_URL: optionalString.pipe(z.string().url().optional()),
  LLM_BASIC_API_KEY: optionalString,
  LLM_BASIC_PROVIDER_NAME: optionalString,
  LLM_BASIC_RETENTION: optionalString,
  LLM_PRO_BASE_URL: optionalString.pipe(z.string().url().optional()),
  LLM_PRO_API_KEY: optionalString,
  LLM_PRO_PROVIDER_NAME: optionalString,
  LLM_PRO_RETENTION: optionalString,
  /** Input budget per model in tokens (counted approximately); unset: the model table (lib/shared/llm/models.ts). */
  LLM_BASIC_CONTEXT_TOKENS: z.coerce.number().int().min(1000).optional(),
  LLM_PRO_CONTEXT_TOKENS: z.coerce.number().int().min(1000).optional(),
  /** Milliseconds without any token from the provider before the request is abandoned. */
  LLM_TIMEOUT_MS: positiveInt(60_000),
  // Confidential inference (docs/confidential-inference.md, lib/confidential): chat turns
  // encrypted in the browser (EHBP) to an attested enclave; Hush's server only relays the ciphertext.
  /** The enclave's origin (e.g. https://inference.tinfoil.sh); https in production except on loopback. */
  CONFIDENTIAL_BASE_URL: optionalString.pipe(z.string().url().optional()),
  /** Bearer key the relay adds to each request to the enclave (the browser never sees it). */
  CONFIDENTIAL_API_KEY: optionalString,
  /** A key per public model, used for the turns allowed that model (e.g. a provider key restricted to
   *  the Basic model's id, so a tampered Free client cannot get another model); unset: CONFIDENTIAL_API_KEY. */
  CONFIDENTIAL_API_KEY_BASIC: optionalString,
  CONFIDENTIAL_API_KEY_PRO: optionalString,
  /** Public model codes served confidentially, comma-separated; unset with CONFIDENTIAL_BASE_URL: every model. */
  CONFIDENTIAL_MODELS: optionalString,
  /** "production": the browser accepts only a hardware attestation whose code measurement is signed
   *  under CONFIDENTIAL_CONFIG_REPO; "development": also the development enclave (labelled so). */
  CONFIDENTIAL_TRUST: z.enum(["production", "development"]).optional(),
  /** "1" lets a production start run with CONFIDENTIAL_TRUST=development (logged as a warning at start). */
  CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION: z.enum(["0", "1"]).default("0"),
  /** GitHub repository (owner/name) whose Sigstore-signed releases hold the enclave's code measurement. */
  CONFIDENTIAL_CONFIG_REPO: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,38}\/[A-Za-z0-9._-]{1,100}$/, "must be a GitHub repository, owner/name")
      .optional(),
  ),
  /** The enclave's model id behind each public code (what the browser puts inside the ciphertext and
   *  what the enclave reports in its usage); unset: LLM_MODEL_BASIC / LLM_MODEL_PRO. */
  CONFIDENTIAL_MODEL_BASIC: optionalString,
  CONFIDENTIAL_MODEL_PRO: optionalString,
  /** Largest encrypted request body the relay forwards, bytes (counted while streaming; 413 beyond). */
  CONFIDENTIAL_MAX_REQUEST_BYTES: bodyLimit(16 * 1024 * 1024),
  /** Milliseconds the relay waits for the enclave's response headers (504 after; connecting: at most 10 s). */
  CONFIDENTIAL_TIMEOUT_MS: positiveInt(60_000),
  /**
   * Longest silence in the enclave's streamed answer, ms, and longest whole answer from its first byte, ms
   * (finding 4): past either the relay ends the stream, as a dropped connection.
   */
  CONFIDENTIAL_IDLE_TIMEOUT_MS: positiveInt(60_000),
  CONFIDENTIAL_STREAM_TIMEOUT_MS: positiveInt(600_000),
  /** Seconds the assembled production attestation bundle is reused before it is fetched again. */
  CONFIDENTIAL_ATTESTATION_CACHE_SECONDS: positiveInt(300),
  /** Seconds a client whose enclave usage named another model than its plan allowed is refused (403). */
  CONFIDENTIAL_MISMATCH_BLOCK_SECONDS: positiveInt(24 * 3600),
  /** Port of the development enclave (`npm run enclave:dev`), the embedded default's enclave. */
  ENCLAVE_PORT: z.coerce.number().int().min(1).max(65535).default(8788),
  /**
   * Least seconds between two passes that physically remove deleted key material (VACUUM FULL of the key
   * tables, then the write-ahead log moved past it: lib/server/db/key-vacuum.ts). A
   * deletion waits for the next pass before it answers; 0: a pass per deletion (tests).
   */
  KEY_VACUUM_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Contact address shown in the footer and on /contact ({email} in the spec). */
  CONTACT_EMAIL: z.string().email().default("hello@hush.chat"),
  /**
   * Abuse bounds on a chat request (lib/server/chat/limits.ts). Long conversations are not refused: the
   * context budget (lib/shared/llm/fit-context.ts) leaves the oldest content out instead.
   */
  CHAT_MAX_MESSAGES: positiveInt(10_000),
  CHAT_MAX_MESSAGE_CHARS: positiveInt(32_000),
  /** Bytes of a chat request's JSON: messages, this turn's document and earlier documents. */
  CHAT_MAX_REQUEST_BYTES: bodyLimit(16 * 1024 * 1024),
  /** Earlier documents a chat request may carry back (`documents`, each at most PDF_MAX_TEXT_CHARS). */
  CHAT_MAX_DOCUMENTS: positiveInt(20),
  /**
   * Public model codes whose provider model reads images, comma-separated: set it only
   * when LLM_MODEL_<TIER> (or the enclave's model) is a vision model, e.g. Groq's
   * meta-llama/llama-4-scout-17b-16e-instruct or Ollama's llava. Unset: no model takes images (the
   * default models read text only), and an image is refused with a sentence saying so.
   */
  LLM_VISION_MODELS: optionalString,
  /** Images on one user message of a chat request (lib/shared/chat/images.ts). */
  CHAT_MAX_IMAGES_PER_MESSAGE: positiveInt(4),
  /** Images in one chat request, all messages together (Groq takes at most 5 a request). */
  CHAT_MAX_IMAGES: positiveInt(5),
  /**
   * Decoded bytes of one image in a chat request. Groq refuses a request with base64 images over 4 MB with
   * 413 (console.groq.com/docs/vision, "Request Size Limit"); the browser's re-encoded JPEG at
   * IMAGE_MAX_SIDE is typically a few hundred KB, and a provider's 413 answers as a provider failure.
   */
  CHAT_MAX_IMAGE_BYTES: positiveInt(3 * 1024 * 1024),
  /**
   * Limits of reading a PDF, the same on both sides (lib/shared/pdf): the browser's (lib/browser/pdf, passed to the
   * chat page) for the web app's `document`, and the server's (lib/server/pdf) for the spec's `file` sent to a
   * standard model. PDF_MAX_TEXT_CHARS also bounds a document's text in a chat request.
   */
  PDF_MAX_BYTES: positiveInt(10 * 1024 * 1024),
  PDF_MAX_PAGES: positiveInt(100),
  PDF_MAX_TEXT_CHARS: positiveInt(60_000),
  PDF_PARSE_TIMEOUT_MS: positiveInt(15_000),
  /** Most bytes a PDF's compressed streams may inflate to, in total (decompression bombs fail fast). */
  PDF_MAX_INFLATED_BYTES: positiveInt(100 * 1024 * 1024),

  // Sign-in (lib/auth). next-auth's own NEXTAUTH_URL/NEXTAUTH_SECRET are derived from these in one
  // place, lib/server/auth/options.ts.
  /** Signs next-auth's CSRF tokens and salts e-mail link tokens; at least 32 characters. */
  NEXTAUTH_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  /** SMTP URL for sign-in e-mails, e.g. smtps://user:pass@smtp.example.com:465. */
  EMAIL_SERVER: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
  ),
  /** Sender of sign-in e-mails; unset: "Hush <no-reply@<APP_URL host>>". */
  EMAIL_FROM: optionalString,
  /** Sign-in e-mails one mailbox may be sent per hour at the request of one client network (lib/server/rate-limit.ts). */
  EMAIL_SIGNIN_LIMIT_PER_HOUR: positiveInt(5),
  /**
   * Sign-in e-mails one mailbox may be sent per minute from all networks together: the ceiling on mail to
   * one inbox, a minute long so that nobody can hold the owner's next link back for longer.
   * At least EMAIL_SIGNIN_LIMIT_PER_HOUR, so one network alone never meets it first.
   */
  EMAIL_SIGNIN_MAILBOX_LIMIT_PER_MINUTE: positiveInt(6),
  /** Sign-in e-mails one client address (lib/server/client-address.ts) may request per hour, whatever the addresses. */
  EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR: positiveInt(20),
  /** Days without any authenticated request after which a session ends (idle timeout). */
  SESSION_IDLE_DAYS: positiveInt(7),
  /** Days after sign-in after which a session ends however much it is used (absolute lifetime). */
  SESSION_MAX_AGE_DAYS: positiveInt(30),
  /** Google OAuth client (web application). Without both, "Continue with Google" says it is unavailable. */
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** OpenID Connect issuer playing Google; tests point it at a local oauth2-mock-server. */
  GOOGLE_ISSUER: z.string().url().default("https://accounts.google.com"),
  /** The desktop app's deep link; /appsignup sends `?idToken=<Google ID token>` to it (docs/product.md §2). */
  DESKTOP_APP_REDIRECT_URL: z.string().url().default("hush://auth"),
  /** Optional receiver of auth-token sync calls (docs/product.md §7), called by the server, never the browser. */
  AUTH_SYNC_URL: optionalString.pipe(z.string().url().optional()),
  /** HS256 key of the tokens sent to AUTH_SYNC_URL; required with it, at least 32 characters. */
  AUTH_SYNC_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  /** Redis for rate limits and chat quotas shared by several app instances; unset: rate limits in
   *  process memory, quotas in the database. */
  REDIS_URL: optionalString,

  // Billing (lib/server/billing). Without STRIPE_SECRET_KEY the pricing page still renders and Get Pro says
  // that payments are not configured; `npm run plan -- grant <email>` grants Pro by hand instead.
  /** Stripe secret key (sk_live_... / sk_test_...). */
  STRIPE_SECRET_KEY: optionalString,
  /** Signing secret of the webhook endpoint <APP_URL>/api/stripe/webhook (whsec_...). */
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Stripe API origin; only tests change it (a local fake Stripe server), e.g. http://127.0.0.1:4510. */
  STRIPE_API_BASE: optionalString.pipe(z.string().url().optional()),
  /** Largest age, in seconds, of a webhook signature's timestamp (Stripe's default 300). */
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: positiveInt(300),
  /**
   * Proxies whose forwarded headers are believed (lib/server/client-address.ts): comma-separated addresses or
   * CIDR ranges (proxy-addr syntax, also "loopback", "linklocal", "uniquelocal"), e.g. 127.0.0.1 behind
   * nginx on the same host, or a load balancer's subnet. Unset: the socket's peer is the client and
   * X-Forwarded-For and COUNTRY_HEADER are ignored.
   */
  TRUSTED_PROXIES: optionalString,
  /** Request header a trusted edge sets to the visitor's ISO country (e.g. cf-ipcountry); read only
   *  from a TRUSTED_PROXIES peer. Unset: offline GeoIP of the client address. */
  COUNTRY_HEADER: optionalString,
  /** Forwarded-for header of the trusted proxies (read right to left past trusted hops). */
  CLIENT_IP_HEADER: z.string().trim().toLowerCase().default("x-forwarded-for"),
  /**
   * Prefix length (bits) by which IPv6 clients are counted for per-address limits (visitor quota, sign-in
   * mail, rate limits; lib/server/client-address.ts clientKey): one /64 is one client, as a home or phone usually
   * gets a whole /64. 128 counts each address. IPv4 clients are counted by address.
   */
  IPV6_CLIENT_PREFIX: z.coerce.number().int().min(16).max(128).default(64),
  /** Daily chat messages (UTC days): visitors per address, Free and Pro users per account (Pro: fair use). */
  QUOTA_VISITOR_PER_DAY: positiveInt(10),
  QUOTA_FREE_PER_DAY: positiveInt(50),
  QUOTA_PRO_PER_DAY: positiveInt(1000),
  // Web search (docs/web-search.md): the "Search the web" toggle of the composer.
  /** A self-hosted SearXNG instance (its JSON API, `GET /search?q=…&format=json`) queried for standard models;
   *  unset: no web search for standard models (confidential models search inside the enclave). */
  SEARXNG_URL: optionalString.pipe(z.string().url().optional()),
  /** Milliseconds one SearXNG query may take before it counts as failed. */
  SEARCH_TIMEOUT_MS: positiveInt(8000),
  /** Results of each query given to the model and listed as sources. */
  SEARCH_MAX_RESULTS: z.coerce.number().int().min(1).max(20).default(5),
  /** Bytes of one SearXNG answer read at most; a larger answer counts as failed. */
  SEARCH_MAX_RESPONSE_BYTES: positiveInt(2 * 1024 * 1024),
  /** Port of the development SearXNG stand-in (`npm run search:dev`), the embedded default's engine. */
  SEARCH_DEV_PORT: z.coerce.number().int().min(1).max(65535).default(8789),
  /** Web searches per UTC day: visitors per address, Free and Pro users per account. */
  SEARCH_PER_DAY_VISITOR: positiveInt(3),
  SEARCH_PER_DAY_FREE: positiveInt(20),
  SEARCH_PER_DAY_PRO: positiveInt(300),
  /** "1": confidential turns with web search also ask the enclave for its personal-data check (`pii_check_options`). */
  CONFIDENTIAL_SEARCH_PII_CHECK: z.enum(["0", "1"]).default("0"),
  /** Seconds a SIGTERM waits for chat answers in flight before aborting them (lib/server/lifecycle.ts); keep it
   *  below the orchestrator's kill timeout (Docker's stop_grace_period, Kubernetes' terminationGracePeriodSeconds). */
  SHUTDOWN_GRACE_SECONDS: positiveInt(25),
});

export type Env = z.infer<typeof envSchema>;

import type { LlmProviderKind } from "@/lib/shared/llm/types";

export type { LlmProviderKind };

export type { ModelTier };

/** Where one model tier's requests go (lib/server/llm/providers.ts builds the client from it). */
export interface LlmRoute {
  kind: LlmProviderKind;
  /** OpenAI-compatible base URL (with /v1) or, for Groq, the API origin; unset: the provider's default. */
  baseUrl?: string;
  apiKey?: string;
  /**
   * Shown on /privacy and in the product: who serves this model, as configured (or the host of its base
   * URL); null: the provider kind's own name (lib/server/llm/providers.ts).
   */
  providerName: string | null;
  /** The operator's statement of what that provider keeps; null: none configured (lib/server/llm/providers.ts). */
  retention: string | null;
}

/** Confidential inference as configured (null in Config.confidential when off). */
export interface ConfidentialSettings {
  /** The enclave's origin, without a trailing slash (the only place the relay sends requests). */
  origin: string;
  /** host[:port] of the origin (what the attestation is bound to). */
  host: string;
  /** The bearer key of the turns allowed each public model (CONFIDENTIAL_API_KEY_<TIER>, else CONFIDENTIAL_API_KEY). */
  apiKeys: Record<ModelCode, string | null>;
  /** Public model codes served this way. */
  models: ModelCode[];
  /** The enclave's model id of each public code. */
  enclaveModels: Record<ModelCode, string>;
  trust: "production" | "development";
  /** owner/name of the repository whose signed releases hold the code measurement (production trust). */
  configRepo: string | null;
  /** The embedded default: the development enclave on ENCLAVE_PORT (no provider configured). */
  embedded: boolean;
}

export interface Config extends Env {
  isProduction: boolean;
  /** Absolute path of DATA_DIR. */
  dataDir: string;
  database: { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };
  /** The default provider (GROQ_API_KEY, else LLM_BASE_URL, else development). */
  llmProvider: LlmProviderKind;
  /** The provider of each model tier: its own LLM_<TIER>_BASE_URL, else the default provider. */
  llmRoutes: Record<ModelTier, LlmRoute>;
  /** How sign-in e-mails leave: SMTP, the server log (development/test default), or not at all. */
  emailDelivery: "smtp" | "log" | "disabled";
  /** Both Google OAuth settings are present. */
  googleSignIn: boolean;
  /** STRIPE_SECRET_KEY is set: checkout and the customer portal work. */
  paymentsEnabled: boolean;
  /** TRUSTED_PROXIES as a list (empty: trust no forwarded header). */
  trustedProxies: string[];
  /** Confidential inference (CONFIDENTIAL_*), or null when no enclave is configured. */
  confidential: ConfidentialSettings | null;
  /** LLM_VISION_MODELS as model codes, in table order (empty: no model reads images). */
  visionModels: ModelCode[];
  /** Web search for standard models (SEARXNG_URL), or null when off. */
  search: SearchSettings | null;
}

/** The SearXNG instance standard models' searches go to. */
export interface SearchSettings {
  /** SEARXNG_URL without a trailing slash. */
  baseUrl: string;
  /** Its host[:port], named to the user as the engine. */
  host: string;
  /** The embedded default: the development SearXNG stand-in on SEARCH_DEV_PORT (dev/searxng.ts). */
  embedded: boolean;
}

/** A setting is missing or malformed; the message names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Secrets that production refuses to start without. */
const REQUIRED_IN_PRODUCTION = ["NEXTAUTH_SECRET"] as const;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

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
  const confidential = confidentialSettings(env, isProduction && !building);
  if (isProduction && !building) {
    const missing = REQUIRED_IN_PRODUCTION.filter((k) => !env[k]);
    const everyTierRouted = Boolean(env.LLM_BASIC_BASE_URL && env.LLM_PRO_BASE_URL);
    // Every model confidential: no plaintext provider is needed.
    const everyModelConfidential = confidential !== null && confidential.models.length === MODEL_CODES.length;
    if (!env.GROQ_API_KEY && !env.LLM_BASE_URL && !everyTierRouted && !everyModelConfidential) {
      missing.push("GROQ_API_KEY or LLM_BASE_URL" as never);
    }
    if (missing.length) {
      throw new ConfigError(
        `Missing required setting${missing.length > 1 ? "s" : ""} in production: ${missing.join(", ")}. ` +
          "See .env.example.",
      );
    }
    // Session cookies are Secure exactly when APP_URL is https; only a local production run may do without.
    const appUrl = new URL(env.APP_URL);
    if (appUrl.protocol !== "https:" && !LOOPBACK_HOSTS.has(appUrl.hostname)) {
      throw new ConfigError("APP_URL must be an https:// URL in production (session cookies are Secure). See .env.example.");
    }
  }
  if (env.AUTH_SYNC_URL && !env.AUTH_SYNC_SECRET) {
    throw new ConfigError("AUTH_SYNC_URL is set but AUTH_SYNC_SECRET is missing. See .env.example.");
  }
  const trustedProxies = (env.TRUSTED_PROXIES ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  try {
    proxyaddr.compile(trustedProxies);
  } catch (error) {
    throw new ConfigError(`TRUSTED_PROXIES: ${error instanceof Error ? error.message : "invalid"}. See .env.example.`);
  }
  if (env.EMAIL_SIGNIN_MAILBOX_LIMIT_PER_MINUTE < env.EMAIL_SIGNIN_LIMIT_PER_HOUR) {
    throw new ConfigError("EMAIL_SIGNIN_MAILBOX_LIMIT_PER_MINUTE must be at least EMAIL_SIGNIN_LIMIT_PER_HOUR. See .env.example.");
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
    llmRoutes: { basic: llmRoute(env, llmProvider, "BASIC"), pro: llmRoute(env, llmProvider, "PRO") },
    emailDelivery: env.EMAIL_SERVER ? "smtp" : isProduction ? "disabled" : "log",
    googleSignIn: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
    paymentsEnabled: Boolean(env.STRIPE_SECRET_KEY),
    trustedProxies,
    confidential,
    visionModels: visionModels(env),
    search: searchSettings(env, Boolean(confidential?.embedded)),
  };
}

/**
 * SEARXNG_URL as settings; with the embedded default (development, no provider configured: the development
 * enclave runs) the development SearXNG stand-in on SEARCH_DEV_PORT, so web search works on a fresh clone.
 */
function searchSettings(env: Env, embedded: boolean): SearchSettings | null {
  const raw = env.SEARXNG_URL ?? (embedded ? `http://127.0.0.1:${env.SEARCH_DEV_PORT}` : undefined);
  if (!raw) return null;
  const url = new URL(raw);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ConfigError("SEARXNG_URL must be an http(s):// URL. See .env.example.");
  return { baseUrl: raw.replace(/\/+$/, ""), host: url.host, embedded: !env.SEARXNG_URL };
}

/** LLM_VISION_MODELS as model codes. @throws ConfigError naming an unknown code */
function visionModels(env: Env): ModelCode[] {
  const listed = (env.LLM_VISION_MODELS ?? "").split(",").map((c) => c.trim()).filter(Boolean);
  const unknown = listed.filter((c) => !isModelCode(c));
  if (unknown.length) {
    throw new ConfigError(`LLM_VISION_MODELS: unknown model code ${unknown.join(", ")} (known: ${MODEL_CODES.join(", ")}). See .env.example.`);
  }
  return MODEL_CODES.filter((c) => listed.includes(c));
}

/**
 * CONFIDENTIAL_* as settings, or null when no enclave is configured. With no provider configured at all
 * in development (no GROQ_API_KEY, LLM_BASE_URL, LLM_<TIER>_BASE_URL or CONFIDENTIAL_BASE_URL), the
 * embedded default: the development enclave at http://127.0.0.1:ENCLAVE_PORT, development trust, every
 * model confidential.
 * @throws ConfigError for an origin that is not one (a path, query or credentials), plain http to a
 *   non-loopback host in production, an unknown model code, production trust without
 *   CONFIDENTIAL_CONFIG_REPO, or (when `starting` in production) development trust without
 *   CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION=1.
 */
function confidentialSettings(env: Env, starting: boolean): ConfidentialSettings | null {
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

/** One tier's route: its own LLM_<TIER>_* settings, else the default provider's. */
function llmRoute(env: Env, defaultKind: LlmProviderKind, tier: "BASIC" | "PRO"): LlmRoute {
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
      // Name the server by its host rather than a generic label when the operator gave no name.
      const providerName = own.providerName ?? env.LLM_PROVIDER_NAME ?? (env.LLM_BASE_URL ? new URL(env.LLM_BASE_URL).host : shared.providerName);
      return { kind: "openai-compatible", baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, ...shared, providerName };
    }
    case "development":
      return { kind: "development", ...shared };
  }
}

// One Config object per process, whichever bundle asks: the modules that cache per Config compare it by
// identity (lib/server/quota.ts, lib/server/rate-limit.ts).
const shared = processSlot<Config>("config");

/** The process-wide Config, parsed once from process.env. @throws ConfigError */
export function getConfig(): Config {
  shared.value ??= parseConfig(process.env);
  return shared.value;
}

/** Forget the parsed Config; tests that change process.env call this. */
export function resetConfigForTests(): void {
  shared.value = undefined;
}

/** Human-readable list of the embedded defaults in use, for the start-up log. */
export function describeDefaults(config: Config): string[] {
  const notes: string[] = [];
  if (config.database.kind === "pglite") notes.push(`database: embedded PGlite in ${config.database.dataDir}`);
  if (config.llmProvider === "development")
    notes.push("LLM: built-in development responder (set GROQ_API_KEY or LLM_BASE_URL for a real model)");
  if (!config.NEXTAUTH_SECRET) notes.push(`sign-in: development NEXTAUTH_SECRET generated in ${config.dataDir}`);
  if (config.emailDelivery === "log")
    notes.push("e-mail: sign-in links are written to this log, not sent (set EMAIL_SERVER to send them)");
  if (config.emailDelivery === "disabled") notes.push("e-mail: sign-in by e-mail is off (EMAIL_SERVER is not set)");
  if (!config.googleSignIn) notes.push("Google sign-in: off (set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET)");
  if (!config.REDIS_URL) notes.push("rate limits: in-process memory; chat quotas: database (set REDIS_URL when running several instances)");
  if (config.confidential?.embedded) {
    notes.push(
      `confidential inference: development enclave at ${config.confidential.origin}, development trust ` +
        "(start it with `npm run enclave:dev`; set CONFIDENTIAL_BASE_URL for a real enclave)",
    );
  }
  if (config.search?.embedded) notes.push(`web search: development SearXNG stand-in at ${config.search.baseUrl} (a fixed local corpus; set SEARXNG_URL for a real one)`);
  if (!config.paymentsEnabled) notes.push("payments: off (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET); `npm run plan` grants Pro by hand");
  return notes;
}
