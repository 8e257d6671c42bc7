/**
 * The one error type of Hush (modelled on vercel/ai-chatbot's lib/shared/errors.ts `ChatSDKError`): a `code`
 * of the form "<type>:<surface>" (e.g. "not_found:chat", "rate_limited:sign_in_mailbox"), the HTTP
 * status its type stands for, a public message (a sentence for people, never user content), and
 * optional response headers (Retry-After). Route handlers throw it and lib/server/api/route.ts answers
 * `error.toResponse()`: `{ "error": message }` with the status (docs/product.md §7, §8). The browser's typed API
 * client (lib/browser/api/client.ts) throws the same class for a refused call, built from the answer's status
 * and `{ error }` body; status 0 there means the server could not be reached.
 *
 * Isomorphic: no server-only imports, so the browser and the server share it.
 */

/** What a code's first part means, and the HTTP status it answers with. */
const STATUS_OF_TYPE = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  upstream: 502,
  unavailable: 503,
  timeout: 504,
  /** The server's disk is full: nothing was stored (docs/issues.md #53). */
  insufficient_storage: 507,
  /** Browser only: the server could not be reached (status 0, never sent as a response). */
  offline: 0,
} as const;

export type ErrorType = keyof typeof STATUS_OF_TYPE;
/** "<type>:<surface>", e.g. "conflict:vault_exists". */
export type ErrorCode = `${ErrorType}:${string}`;

/** The type of each HTTP status this codebase answers with (for errors rebuilt from a response). */
const TYPE_OF_STATUS = new Map<number, ErrorType>(
  Object.entries(STATUS_OF_TYPE).map(([type, status]) => [status, type as ErrorType]),
);

export interface AppErrorOptions<Reason extends string = string> {
  /**
   * A finer, machine-readable cause within the code (e.g. "wrong_host" for "upstream:attestation"), so callers
   * and tests can tell failures of one surface apart; never shown, never in a response body.
   */
  reason?: Reason;
  /** Extra response headers, e.g. `{ "Retry-After": "30" }`. */
  headers?: Record<string, string>;
  /** Overrides the status of the code's type (only where the spec asks for another one). */
  status?: number;
  /** The underlying error, kept for logs (its message never reaches a response). */
  cause?: unknown;
}

/** A failure with a code, an HTTP status and a public message: the one Error subclass of lib and components. */
export class AppError<Reason extends string = string> extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** The finer cause within `code` (AppErrorOptions.reason), when the surface has several. */
  readonly reason?: Reason;

  /**
   * @param code "<type>:<surface>"; the type decides the status (STATUS_OF_TYPE) unless `options.status`.
   * @param message the public message (shown to people, logged): never user content.
   */
  constructor(code: ErrorCode, message: string, options: AppErrorOptions<Reason> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = options.status ?? STATUS_OF_TYPE[code.split(":", 1)[0] as ErrorType] ?? 500;
    this.headers = options.headers;
    if (options.reason !== undefined) this.reason = options.reason;
  }

  /** The code's first part, e.g. "not_found". */
  get type(): ErrorType {
    return this.code.split(":", 1)[0] as ErrorType;
  }

  /** True when this error's code is `code`, or starts with `code` + ":" when `code` is a bare type. */
  is(code: ErrorType | ErrorCode): boolean {
    return code.includes(":") ? this.code === code : this.type === code;
  }

  /** `{ "error": message }` with the status and headers (the spec's error body). */
  toResponse(): Response {
    return Response.json({ error: this.message }, { status: this.status, headers: this.headers });
  }

  /** The error of a refused API call, from its status and `{ error }` body (lib/browser/api/client.ts). */
  static fromStatus(status: number, message: string, surface = "api"): AppError {
    const type = TYPE_OF_STATUS.get(status) ?? (status >= 500 ? "internal" : "bad_request");
    return new AppError(`${type}:${surface}`, message, { status });
  }
}

/** True for an AppError, optionally with the given code or type. */
export function isAppError(error: unknown, code?: ErrorType | ErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.is(code));
}
