/**
 * The one error type of Hush: a `code` "<type>:<surface>", the HTTP status of its type, a public message (never
 * user content) and optional headers; `toResponse()` answers `{ "error": message }` (docs/product.md §8). Isomorphic.
 */

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
  insufficient_storage: 507,
  /** Browser only: the server could not be reached. */
  offline: 0,
} as const;

export type ErrorType = keyof typeof STATUS_OF_TYPE;
export type ErrorCode = `${ErrorType}:${string}`;

const TYPE_OF_STATUS = new Map<number, ErrorType>(
  Object.entries(STATUS_OF_TYPE).map(([type, status]) => [status, type as ErrorType]),
);

export interface AppErrorOptions<Reason extends string = string> {
  /** A finer, machine-readable cause within the code; never in a response body. */
  reason?: Reason;
  headers?: Record<string, string>;
  status?: number;
  /** The underlying error, kept for logs (its message never reaches a response). */
  cause?: unknown;
}

export class AppError<Reason extends string = string> extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly reason?: Reason;

  /** @param message the public message (shown to people, logged): never user content. */
  constructor(code: ErrorCode, message: string, options: AppErrorOptions<Reason> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = options.status ?? STATUS_OF_TYPE[code.split(":", 1)[0] as ErrorType] ?? 500;
    this.headers = options.headers;
    if (options.reason !== undefined) this.reason = options.reason;
  }

  get type(): ErrorType {
    return this.code.split(":", 1)[0] as ErrorType;
  }

  is(code: ErrorType | ErrorCode): boolean {
    return code.includes(":") ? this.code === code : this.type === code;
  }

  toResponse(): Response {
    return Response.json({ error: this.message }, { status: this.status, headers: this.headers });
  }

  static fromStatus(status: number, message: string, surface = "api"): AppError {
    const type = TYPE_OF_STATUS.get(status) ?? (status >= 500 ? "internal" : "bad_request");
    return new AppError(`${type}:${surface}`, message, { status });
  }
}

export function isAppError(error: unknown, code?: ErrorType | ErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.is(code));
}
