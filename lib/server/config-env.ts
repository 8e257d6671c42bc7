import "server-only";
import { DEFAULT_CHAT_LIMITS } from "@/lib/shared/chat/turn-schema";
import { z } from "@/lib/shared/zod";
import { BODY_CEILING_BYTES } from "@/lib/server/body-limits";

/**
 * The environment's schema: every setting Hush reads, with its default and its documentation (`.env.example`
 * documents each key too). Read only through lib/server/config.ts (`getConfig()`).
 */

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** A request body limit in bytes: at most the one ceiling next.config.ts lets through (lib/server/body-limits.ts). */
const bodyLimit = (fallback: number) => z.coerce.number().int().positive().max(BODY_CEILING_BYTES).default(fallback);

/** The environment variables Hush reads, parsed and defaulted. */
export const envSchema = z.object({
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
  /**
   * The embedded PGlite's shared_buffers, MB (PostgreSQL's default is 128): its page cache, held in memory once
   * used. 16 keeps a small server's memory low (README, "Memory at ready"); raise it for a large database.
   */
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(1024).default(16),
  /**
   * `on`: the embedded PGlite acknowledges a commit once it is on the disk (fsync; docs/security.md "Power cut").
   * `off`: PGlite's own default, fsync off: faster, but a power cut or kernel crash can lose the last commits.
   */
  PGLITE_DURABILITY: z.enum(["on", "off"]).default("on"),
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
  CHAT_MAX_MESSAGES: positiveInt(DEFAULT_CHAT_LIMITS.maxMessages),
  CHAT_MAX_MESSAGE_CHARS: positiveInt(DEFAULT_CHAT_LIMITS.maxMessageChars),
  /** Bytes of a chat request's JSON: messages, this turn's document and earlier documents. */
  CHAT_MAX_REQUEST_BYTES: bodyLimit(DEFAULT_CHAT_LIMITS.maxRequestBytes),
  /** Earlier documents a chat request may carry back (`documents`, each at most PDF_MAX_TEXT_CHARS). */
  CHAT_MAX_DOCUMENTS: positiveInt(DEFAULT_CHAT_LIMITS.maxDocuments),
  /**
   * Public model codes whose provider model reads images, comma-separated: set it only
   * when LLM_MODEL_<TIER> (or the enclave's model) is a vision model, e.g. Groq's
   * meta-llama/llama-4-scout-17b-16e-instruct or Ollama's llava. Unset: no model takes images (the
   * default models read text only), and an image is refused with a sentence saying so.
   */
  LLM_VISION_MODELS: optionalString,
  /**
   * Public model codes whose provider model cannot call functions (OpenAI `tools`), comma-separated: with
   * "Search the web" on they search the user's message as it is instead of queries they write. Unset: the model
   * table's `functionCalling` (on for both default models, Groq's gpt-oss).
   */
  LLM_NO_FUNCTION_CALLING_MODELS: optionalString,
  /**
   * Device tools the chat offers the model with every turn (docs/issues.md #50), comma-separated names of
   * lib/shared/llm/device-tools.ts (run_code excepted: the "Run code" switch offers it); empty by default.
   */
  CHAT_DEVICE_TOOLS: optionalString,
  /**
   * Model calls per user message when the model uses tools (docs/issues.md #50): the last one is offered no tools,
   * so the model must answer. At least 2 (one call that searches, one that answers).
   */
  CHAT_MAX_TOOL_STEPS: z.coerce.number().int().min(2).max(50).default(8),
  /** Images on one user message of a chat request (lib/shared/chat/images.ts). */
  CHAT_MAX_IMAGES_PER_MESSAGE: positiveInt(DEFAULT_CHAT_LIMITS.maxImagesPerMessage),
  /** Images in one chat request, all messages together (Groq takes at most 5 a request). */
  CHAT_MAX_IMAGES: positiveInt(DEFAULT_CHAT_LIMITS.maxImagesPerRequest),
  /**
   * Decoded bytes of one image in a chat request. Groq refuses a request with base64 images over 4 MB with
   * 413 (console.groq.com/docs/vision, "Request Size Limit"); the browser's re-encoded JPEG at
   * IMAGE_MAX_SIDE is typically a few hundred KB, and a provider's 413 answers as a provider failure.
   */
  CHAT_MAX_IMAGE_BYTES: positiveInt(DEFAULT_CHAT_LIMITS.maxImageBytes),
  /**
   * Limits of reading a PDF, the same on both sides (lib/shared/pdf): the browser's (lib/browser/pdf, passed to the
   * chat page) for the web app's `document`, and the server's (lib/server/pdf) for the spec's `file` sent to a
   * standard model. PDF_MAX_TEXT_CHARS also bounds a document's text in a chat request.
   */
  PDF_MAX_BYTES: positiveInt(10 * 1024 * 1024),
  PDF_MAX_PAGES: positiveInt(100),
  PDF_MAX_TEXT_CHARS: positiveInt(DEFAULT_CHAT_LIMITS.maxDocumentChars),
  PDF_PARSE_TIMEOUT_MS: positiveInt(15_000),
  /**
   * Most bytes a PDF's compressed streams may inflate to, in total (decompression bombs fail fast). 50 MB, not the
   * 100 MB of before docs/issues.md #39: pdf.js grows a decoder's buffer in powers of two, so 100 MB let a bomb
   * hold a 64 MiB buffer and the server's RSS rise ~105 MiB; under 50 MB the largest is 32 MiB (+85 MiB, goal
   * +100 MB). A text PDF within PDF_MAX_PAGES and PDF_MAX_TEXT_CHARS inflates to a few MB.
   */
  PDF_MAX_INFLATED_BYTES: positiveInt(50 * 1024 * 1024),

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
  // Reading a page (docs/web-search.md "Reading a page"): the read_page tool, offered with "Search the web" on.
  /** Bytes of one page read at most (each hop's body; a longer page is cut there). */
  READ_PAGE_MAX_BYTES: positiveInt(2 * 1024 * 1024),
  /** Milliseconds one read may take in all: DNS, every redirect hop and the body. */
  READ_PAGE_TIMEOUT_MS: positiveInt(10_000),
  /**
   * Milliseconds an HTML page's extraction (Readability and Markdown, in a worker thread) may take once it has
   * a worker; past it the worker is terminated and the page is not read.
   */
  READ_PAGE_EXTRACT_TIMEOUT_MS: positiveInt(5_000),
  /** Characters of a page's extracted text given to the model at most. */
  READ_PAGE_MAX_CHARS: positiveInt(20_000),
  /**
   * host:port pairs, comma-separated (e.g. 127.0.0.1:8790,wiki.intranet:80), exempt from the public-address and
   * port rules of a page read (tests, intranets); each is named in the start-up log. Unset: none, but the embedded defaults
   * (`npm run dev` with no provider) allow the development SearXNG stand-in (127.0.0.1:SEARCH_DEV_PORT), whose pages they read.
   */
  READ_PAGE_ALLOW_HOSTS: optionalString,
  // Dictation (docs/issues.md #52): POST /api/audio/transcriptions for standard models (lib/server/config-stt.ts).
  /**
   * Who transcribes standard models' audio: `groq` (groq-sdk, Groq's whisper models) or `openai-compatible` (any
   * `/v1/audio/transcriptions`, Ollama-style local servers included). Unset: `openai-compatible` when STT_BASE_URL is
   * set, else `groq` when GROQ_API_KEY is, else dictation is off for standard models.
   */
  STT_PROVIDER: optionalString.pipe(z.enum(["groq", "openai-compatible"]).optional()),
  /** The transcription server: for `groq` its origin (groq-sdk appends /openai/v1), else a base URL with /v1. Unset with `groq`: GROQ_BASE_URL. */
  STT_BASE_URL: optionalString.pipe(z.string().url().optional()),
  /** Its key; unset with `groq`: GROQ_API_KEY. */
  STT_API_KEY: optionalString,
  /** The transcription model id. */
  STT_MODEL: z.string().trim().min(1).default("whisper-large-v3-turbo"),
  /** The transcription provider's name on the Dictate button and /privacy; unset: "Groq", or the host of STT_BASE_URL. */
  STT_PROVIDER_NAME: optionalString,
  /** Bytes of one recording accepted at most (413 above). */
  STT_MAX_BYTES: bodyLimit(8 * 1024 * 1024),
  /** Seconds of one recording at most: the browser stops there, the route refuses a longer declared one. */
  STT_MAX_SECONDS: z.coerce.number().int().min(1).max(600).default(120),
  /** Milliseconds one transcription may take before it counts as failed. */
  STT_TIMEOUT_MS: positiveInt(30_000),
  /** Seconds of audio transcribed per UTC day: visitors per address, Free and Pro users per account. */
  STT_SECONDS_PER_DAY_VISITOR: positiveInt(120),
  STT_SECONDS_PER_DAY_FREE: positiveInt(900),
  STT_SECONDS_PER_DAY_PRO: positiveInt(7200),
  // Running code on the user's device (docs/issues.md #51): the run_code device tool, offered with "Run code" on.
  /** "off": the composer has no "Run code" switch and the server offers no run_code tool (on both paths). */
  CODE_EXECUTION: z.enum(["on", "off"]).default("on"),
  /** Milliseconds one program may run in the browser's Python worker before the worker is stopped. */
  CODE_TIMEOUT_MS: positiveInt(10_000),
  /** "1": confidential turns with web search also ask the enclave for its personal-data check (`pii_check_options`). */
  CONFIDENTIAL_SEARCH_PII_CHECK: z.enum(["0", "1"]).default("0"),
  /** Seconds a SIGTERM waits for chat answers and writes in flight before aborting the answers (lib/server/lifecycle.ts); keep it
   *  below the orchestrator's kill timeout (Docker's stop_grace_period, Kubernetes' terminationGracePeriodSeconds). */
  SHUTDOWN_GRACE_SECONDS: positiveInt(25),
});

/** The parsed environment (see envSchema). */
export type Env = z.infer<typeof envSchema>;

/** A setting is missing or malformed; the message names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Hosts on which plain http is accepted in production (a local production run). */
export const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
