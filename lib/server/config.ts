import "server-only";
import path from "node:path";
import proxyaddr from "proxy-addr";
import type { ModelTier } from "@/lib/shared/llm/models";
import { MODEL_CODES, type ModelCode } from "@/lib/shared/llm/models";
import { confidentialSettings, type ConfidentialSettings } from "./config-confidential";
import { ConfigError, envSchema, LOOPBACK_HOSTS, type Env } from "./config-env";
import type { DeviceToolName } from "@/lib/shared/llm/device-tools";
import { deviceTools, llmRoute, noFunctionCallingModels, visionModels, type LlmProviderKind, type LlmRoute } from "./config-llm";
import { processSlot } from "@/lib/server/process-state";
import { sttSettings, type SttSettings } from "./config-stt";

// The one place settings are read from process.env; everything else calls getConfig(). Production refuses to
// start without its secrets; development and test use embedded defaults, which describeDefaults() names.

export { ConfigError };
export type { ConfidentialSettings, Env, LlmProviderKind, LlmRoute, ModelTier, SttSettings };

export interface Config extends Env {
  isProduction: boolean;
  dataDir: string;
  /** Absent `sharedBuffersMb`: 16; absent `durable`: true. */
  database: { kind: "pglite"; dataDir: string; sharedBuffersMb?: number; durable?: boolean } | { kind: "postgres"; url: string };
  llmProvider: LlmProviderKind;
  llmRoutes: Record<ModelTier, LlmRoute>;
  emailDelivery: "smtp" | "log" | "disabled";
  googleSignIn: boolean;
  paymentsEnabled: boolean;
  trustedProxies: string[];
  confidential: ConfidentialSettings | null;
  /** In table order. */
  visionModels: ModelCode[];
  /** In table order; empty: the table's `functionCalling` holds. */
  noFunctionCallingModels: ModelCode[];
  deviceTools: DeviceToolName[];
  /** Null with CODE_EXECUTION=off. */
  codeExecution: CodeExecutionSettings | null;
  search: SearchSettings | null;
  /** Lower-case `host:port` (IPv6 bracketed, the port always written). */
  readPageAllowHosts: string[];
  /** Null when dictation is off for standard models. */
  stt: SttSettings | null;
}

/** Running code on the user's device, as the chat page passes it to the browser. */
export interface CodeExecutionSettings {
  timeoutMs: number;
}

/** The SearXNG instance standard models' searches go to. */
export interface SearchSettings {
  baseUrl: string;
  host: string;
  /** The development stand-in (dev/searxng.ts). */
  embedded: boolean;
}

const REQUIRED_IN_PRODUCTION = ["NEXTAUTH_SECRET"] as const;

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
    const missing: string[] = REQUIRED_IN_PRODUCTION.filter((k) => !env[k]);
    const everyTierRouted = Boolean(env.LLM_BASIC_BASE_URL && env.LLM_PRO_BASE_URL);
    const everyModelConfidential = confidential !== null && confidential.models.length === MODEL_CODES.length;
    if (!env.GROQ_API_KEY && !env.LLM_BASE_URL && !everyTierRouted && !everyModelConfidential) {
      missing.push("GROQ_API_KEY or LLM_BASE_URL");
    }
    if (missing.length) {
      throw new ConfigError(
        `Missing required setting${missing.length > 1 ? "s" : ""} in production: ${missing.join(", ")}. ` +
          "See .env.example.",
      );
    }
    // Session cookies are Secure exactly when APP_URL is https.
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
      : {
          kind: "pglite",
          dataDir: path.join(dataDir, "pglite"),
          sharedBuffersMb: env.PGLITE_SHARED_BUFFERS_MB,
          durable: env.PGLITE_DURABILITY === "on",
        },
    llmProvider,
    llmRoutes: { basic: llmRoute(env, llmProvider, "BASIC"), pro: llmRoute(env, llmProvider, "PRO") },
    emailDelivery: env.EMAIL_SERVER ? "smtp" : isProduction ? "disabled" : "log",
    googleSignIn: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
    paymentsEnabled: Boolean(env.STRIPE_SECRET_KEY),
    trustedProxies,
    confidential,
    visionModels: visionModels(env),
    noFunctionCallingModels: noFunctionCallingModels(env),
    deviceTools: deviceTools(env),
    codeExecution: env.CODE_EXECUTION === "off" ? null : { timeoutMs: env.CODE_TIMEOUT_MS },
    search: searchSettings(env, Boolean(confidential?.embedded)),
    // The embedded defaults read the development SearXNG stand-in's own pages (dev/searxng.ts DEV_PAGES).
    readPageAllowHosts: readPageAllowHosts(env.READ_PAGE_ALLOW_HOSTS ?? (confidential?.embedded && !env.SEARXNG_URL ? `127.0.0.1:${env.SEARCH_DEV_PORT}` : undefined)),
    stt: sttSettings(env),
  };
}

/** Each entry as the WHATWG URL parser writes a host, so spellings of one host match. @throws ConfigError */
function readPageAllowHosts(raw: string | undefined): string[] {
  const entries = (raw ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  return entries.map((entry) => {
    const url = URL.canParse(`http://${entry}`) ? new URL(`http://${entry}`) : null;
    const port = /:(\d{1,5})$/.exec(entry)?.[1];
    if (!url || !port || url.pathname !== "/" || url.username || url.password || url.search || url.hash || Number(port) > 65535) {
      throw new ConfigError(`READ_PAGE_ALLOW_HOSTS: "${entry}" is not host:port. See .env.example.`);
    }
    return `${url.hostname}:${Number(port)}`;
  });
}

// The embedded default searches the development stand-in, so web search works on a fresh clone.
function searchSettings(env: Env, embedded: boolean): SearchSettings | null {
  const raw = env.SEARXNG_URL ?? (embedded ? `http://127.0.0.1:${env.SEARCH_DEV_PORT}` : undefined);
  if (!raw) return null;
  const url = new URL(raw);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ConfigError("SEARXNG_URL must be an http(s):// URL. See .env.example.");
  return { baseUrl: raw.replace(/\/+$/, ""), host: url.host, embedded: !env.SEARXNG_URL };
}

// One Config per process, whichever bundle asks: caches compare it by identity.
const shared = processSlot<Config>("config");

/** The process-wide Config, parsed once from process.env. @throws ConfigError */
export function getConfig(): Config {
  shared.value ??= parseConfig(process.env);
  return shared.value;
}

/** The embedded defaults in use, for the start-up log. */
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
  if (config.search?.embedded && !config.READ_PAGE_ALLOW_HOSTS) {
    notes.push(`read page: the stand-in's pages at ${config.search.baseUrl}/pages/ can be read (READ_PAGE_ALLOW_HOSTS unset; setting it names the allowed hosts instead)`);
  }
  if (!config.paymentsEnabled) notes.push("payments: off (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET); `npm run plan` grants Pro by hand");
  return notes;
}
