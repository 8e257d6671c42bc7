// Fixed messages that never carry prompt text or the upstream's body: safe to log.

export type LlmErrorKind =
  | "rate_limited"
  | "unavailable"
  | "timeout"
  | "interrupted"
  | "bad_request"
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
  status?: number;
  code?: string;
  retryAfterSeconds?: number;
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

export function isLlmError(err: unknown, kind?: LlmErrorKind): err is LlmError {
  return err instanceof LlmError && (kind === undefined || err.kind === kind);
}

/** Only identifier-like codes survive, so an upstream cannot smuggle text into logs. */
export function safeErrorCode(value: unknown): string | undefined {
  return typeof value === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : undefined;
}

export function kindForStatus(status: number): LlmErrorKind {
  if (status === 429) return "rate_limited";
  if (status >= 500) return "unavailable";
  if (status === 408) return "timeout";
  return "bad_request";
}
