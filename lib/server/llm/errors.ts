/**
 * Typed LLM failures. Messages are fixed strings chosen here: they never contain message text,
 * attachment text or the upstream's error body (which may echo the prompt), so they are safe to log.
 */

export type LlmErrorKind =
  /** The upstream answered 429. */
  | "rate_limited"
  /** The upstream answered 5xx, or could not be reached (connection refused, DNS, reset before a reply). */
  | "unavailable"
  /** No token arrived within LLM_TIMEOUT_MS, counted between tokens and before the first. */
  | "timeout"
  /** The stream broke off after it had started. */
  | "interrupted"
  /** Any other 4xx: bad key, unknown or decommissioned model, context too long. */
  | "bad_request"
  /** The caller's AbortSignal fired. */
  | "aborted";

const MESSAGES: Record<LlmErrorKind, string> = {
  rate_limited: "The language model provider is rate limiting requests.",
  unavailable: "The language model provider is unavailable.",
  timeout: "The language model provider did not respond in time.",
  interrupted: "The language model response was interrupted.",
  bad_request: "The language model provider rejected the request.",
  aborted: "The request was cancelled.",
};

export interface LlmErrorDetails {
  /** Upstream HTTP status, when there was one. */
  status?: number;
  /** Upstream error code such as "model_decommissioned" or "rate_limit_exceeded" (identifier only). */
  code?: string;
  /** Seconds the upstream asked us to wait (Retry-After), for rate_limited. */
  retryAfterSeconds?: number;
  /** Which provider failed. */
  provider?: string;
}

export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  readonly status?: number;
  readonly code?: string;
  readonly retryAfterSeconds?: number;
  readonly provider?: string;

  constructor(kind: LlmErrorKind, details: LlmErrorDetails = {}) {
    const suffix = [
      details.provider && `provider=${details.provider}`,
      details.status !== undefined && `status=${details.status}`,
      details.code && `code=${details.code}`,
    ].filter(Boolean);
    super(suffix.length ? `${MESSAGES[kind]} (${suffix.join(", ")})` : MESSAGES[kind]);
    this.name = "LlmError";
    this.kind = kind;
    this.status = details.status;
    this.code = details.code;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.provider = details.provider;
  }
}

/** True for an LlmError, optionally of the given kind. */
export function isLlmError(err: unknown, kind?: LlmErrorKind): err is LlmError {
  return err instanceof LlmError && (kind === undefined || err.kind === kind);
}

/** Only identifier-like codes survive, so an upstream cannot smuggle text into our messages or logs. */
export function safeErrorCode(value: unknown): string | undefined {
  return typeof value === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : undefined;
}

/** Map an HTTP status to a kind (429, 5xx, other 4xx). */
export function kindForStatus(status: number): LlmErrorKind {
  if (status === 429) return "rate_limited";
  if (status >= 500) return "unavailable";
  if (status === 408) return "timeout";
  return "bad_request";
}
