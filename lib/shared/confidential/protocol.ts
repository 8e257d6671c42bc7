import { isAppError, type AppError } from "@/lib/shared/errors";
import type { ModelCode } from "@/lib/shared/llm/models";

/**
 * The confidential relay's wire contract, safe for the client bundle (no server imports): the two
 * same-origin paths, the clear headers the browser sets, and the public settings a page hands the
 * browser's EHBP client. docs/confidential-inference.md describes the whole flow.
 */

/** Same-origin relay paths (app/api/confidential/*). */
export const CONFIDENTIAL_PATHS = {
  /** GET: the enclave's attestation (development: its document; production: a Tinfoil AttestationBundle). */
  attestation: "/api/confidential/attestation",
  /** POST: one EHBP-encrypted chat turn (an OpenAI chat-completions request inside the ciphertext). */
  chat: "/api/confidential/chat",
  /** POST: one EHBP-encrypted dictation (an OpenAI audio-transcriptions multipart request inside; docs/issues.md #52). */
  transcriptions: "/api/confidential/audio/transcriptions",
} as const;

/** The transcription model a confidential dictation asks the enclave for, inside the ciphertext (Tinfoil's router serves it). */
export const ENCLAVE_TRANSCRIPTION_MODEL = "whisper-large-v3-turbo";

/** Clear request header of a confidential dictation: its length in whole seconds, counted like the standard path's. */
export const AUDIO_SECONDS_HEADER = "X-Hush-Audio-Seconds";

/** Clear request header naming the public model code the plan is checked against (docs/product.md §9 codes). */
export const MODEL_HEADER = "X-Hush-Model";

/**
 * Clear request header of a confidential turn with "Search the web" on: "1". The relay counts
 * the search against the day's quota with the turn; the query, results and answer stay inside the ciphertext.
 */
export const WEB_SEARCH_HEADER = "X-Hush-Web-Search";

/**
 * Clear header of the device-tool round trip (docs/issues.md #50): the relay answers each admitted turn with a
 * continuation token in it, and a request that sends it back continues that turn uncounted. The token names the
 * caller, the turn and its step, nothing of the content, so the relay stays blind.
 */
export const CONTINUATION_HEADER = "X-Hush-Continuation";

/**
 * Tinfoil's router opt-in header for its web-search progress markers (confidential-model-router,
 * toolruntime/events.go `X-Tinfoil-Events`); the relay forwards exactly this value and no other.
 */
export const TINFOIL_EVENTS_HEADER = "X-Tinfoil-Events";
export const TINFOIL_EVENTS_WEB_SEARCH = "web_search";

/**
 * The relay's refusal of a confidential turn with search on once the day's searches are used up (429): the
 * browser sends the turn again without search (lib/browser/confidential/turn.ts).
 */
export const SEARCH_QUOTA_REFUSAL = "You've used today's web searches.";

/** EHBP request header: hex of the HPKE encapsulated key (EHBP SPEC.md §4.1); required by the relay. */
export const EHBP_ENCAPSULATED_KEY_HEADER = "Ehbp-Encapsulated-Key";

/** EHBP response header: hex of the 32-byte response nonce (EHBP SPEC.md §4.2); relayed unchanged. */
export const EHBP_RESPONSE_NONCE_HEADER = "Ehbp-Response-Nonce";

/**
 * What a page passes to the browser's confidential client: which models go this way, the trust level
 * the browser must verify under, the enclave host the attestation must be bound to, the repository
 * whose signed releases hold the expected measurement, and the relay paths. Nothing secret.
 */
export interface ConfidentialPublicConfig {
  /** Public model codes served confidentially; the others keep the standard path. */
  models: ModelCode[];
  /** The model id the browser writes inside the encrypted request, per public code. */
  enclaveModels: Partial<Record<ModelCode, string>>;
  /** "development": the development enclave is accepted, and every screen that shows verification says so. */
  trust: "production" | "development";
  /** host[:port] of the enclave (the attestation's domain). */
  enclaveHost: string;
  /** owner/name of the GitHub repository whose Sigstore-signed release holds the code measurement; null under development trust. */
  configRepo: string | null;
  /** Input budget in tokens per confidential code (lib/server/llm/providers.ts `contextBudgetTokens`, the one place it is decided). */
  contextTokens: Partial<Record<ModelCode, number>>;
  paths: typeof CONFIDENTIAL_PATHS;
  modelHeader: typeof MODEL_HEADER;
  /** CONFIDENTIAL_SEARCH_PII_CHECK=1: a turn with web search also sends `pii_check_options`. */
  searchPiiCheck?: boolean;
}

/**
 * Who processes a model's messages, in plain words, for the model picker, Settings' "What Hush can see"
 * and /privacy (one sentence per model, built by `modelPrivacyLines()` in ./models.ts).
 */
export interface ModelPrivacy {
  code: ModelCode;
  title: string;
  /** True: encrypted in the browser to a verified enclave; Hush's server relays ciphertext. */
  confidential: boolean;
  /** Standard models: the provider from the model/provider table (lib/shared/llm/models.ts); confidential: the enclave host. */
  providerName: string;
  /** Confidential models: "development" when the development enclave is accepted (labelled so everywhere). */
  trust: "production" | "development" | null;
  /** The sentence shown, e.g. "Standard: Hush's server and Groq process your messages". */
  line: string;
}

/** True when `code` is served confidentially under `config` (null: confidential inference is off). */
export function isConfidentialCode(config: ConfidentialPublicConfig | null, code: string): boolean {
  return config !== null && (config.models as readonly string[]).includes(code);
}

/**
 * The code of the error for an enclave that could not be verified (or whose attestation could not be fetched
 * for verification): the turn was not sent (lib/browser/confidential/turn.ts). Its `message` is
 * VERIFICATION_FAILED_MESSAGE; its `reason` ("unavailable" or an attestation refusal reason) is for tests.
 */
export const ENCLAVE_UNVERIFIED = "upstream:enclave_verification" as const;

/** What the chat shows when the enclave fails verification (the text contains "verif"). */
export const VERIFICATION_FAILED_MESSAGE = "Couldn't verify the secure enclave — your message was not sent.";

/** An AppError "upstream:enclave_verification" (see ENCLAVE_UNVERIFIED). */
export type EnclaveVerificationError = AppError & { readonly reason: string };

/** True when a turn was not sent because the enclave failed verification. */
export function isEnclaveVerificationError(error: unknown): error is EnclaveVerificationError {
  return isAppError(error, ENCLAVE_UNVERIFIED);
}
