import { isAppError, type AppError } from "@/lib/shared/errors";
import type { ModelCode } from "@/lib/shared/llm/models";

/** The confidential relay's wire contract, safe for the client bundle (docs/confidential-inference.md). */

export const CONFIDENTIAL_PATHS = {
  attestation: "/api/confidential/attestation",
  chat: "/api/confidential/chat",
  transcriptions: "/api/confidential/audio/transcriptions",
} as const;

export const ENCLAVE_TRANSCRIPTION_MODEL = "whisper-large-v3-turbo";

export const AUDIO_SECONDS_HEADER = "X-Hush-Audio-Seconds";

/** Clear header naming the public model code the plan is checked against (docs/product.md §9). */
export const MODEL_HEADER = "X-Hush-Model";

/** Clear header "1" of a turn with search on, for the quota; the query stays sealed. */
export const WEB_SEARCH_HEADER = "X-Hush-Web-Search";

/** Clear header of the device-tool round trip (docs/issues.md #50): a token naming no content. */
export const CONTINUATION_HEADER = "X-Hush-Continuation";

export const TINFOIL_EVENTS_HEADER = "X-Tinfoil-Events";
export const TINFOIL_EVENTS_WEB_SEARCH = "web_search";

/** The relay's 429 past the day's searches: the browser sends the turn again without search. */
export const SEARCH_QUOTA_REFUSAL = "You've used today's web searches.";

/** EHBP SPEC.md §4.1. */
export const EHBP_ENCAPSULATED_KEY_HEADER = "Ehbp-Encapsulated-Key";

/** EHBP SPEC.md §4.2. */
export const EHBP_RESPONSE_NONCE_HEADER = "Ehbp-Response-Nonce";

export interface ConfidentialPublicConfig {
  models: ModelCode[];
  enclaveModels: Partial<Record<ModelCode, string>>;
  trust: "production" | "development";
  enclaveHost: string;
  configRepo: string | null;
  contextTokens: Partial<Record<ModelCode, number>>;
  paths: typeof CONFIDENTIAL_PATHS;
  modelHeader: typeof MODEL_HEADER;
  searchPiiCheck?: boolean;
}

export interface ModelPrivacy {
  code: ModelCode;
  title: string;
  confidential: boolean;
  providerName: string;
  trust: "production" | "development" | null;
  line: string;
}

export function isConfidentialCode(config: ConfidentialPublicConfig | null, code: string): boolean {
  return config !== null && (config.models as readonly string[]).includes(code);
}

export const ENCLAVE_UNVERIFIED = "upstream:enclave_verification" as const;

export const VERIFICATION_FAILED_MESSAGE = "Couldn't verify the secure enclave — your message was not sent.";

export type EnclaveVerificationError = AppError & { readonly reason: string };

export function isEnclaveVerificationError(error: unknown): error is EnclaveVerificationError {
  return isAppError(error, ENCLAVE_UNVERIFIED);
}
