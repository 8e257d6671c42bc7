/**
 * Typed errors of the data layer. Messages carry ids at most, never user content.
 * Decryption failures are lib/crypto.ts's DecryptionError.
 */

/** The chat does not exist or belongs to another user; callers answer 404 either way. */
export class ChatNotFoundError extends Error {
  constructor() {
    super("Chat not found.");
    this.name = "ChatNotFoundError";
  }
}

/** The user row does not exist, or the account was deleted (crypto-shredded). */
export class UserUnavailableError extends Error {
  constructor(readonly reason: "missing" | "deleted") {
    super(reason === "deleted" ? "The account has been deleted." : "User not found.");
    this.name = "UserUnavailableError";
  }
}

/** A pagination cursor that this module did not issue. */
export class InvalidCursorError extends Error {
  constructor() {
    super("Invalid pagination cursor.");
    this.name = "InvalidCursorError";
  }
}

/** Input that breaks a data-layer rule (unknown role, bad limit...). The message names the rule only. */
export class InvalidInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidInputError";
  }
}

/** A migration failed or the migration history needs manual attention. */
export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MigrationError";
  }
}

/** Network and server-state codes meaning "the database cannot be reached right now". */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ENOTFOUND", "EAI_AGAIN",
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, and the connection_exception class.
  "57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006",
  // Prisma: can't reach server, timed out, server closed the connection, connection pool timeout.
  "P1001", "P1002", "P1017", "P2024",
]);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection is closed|Can't reach database|timeout exceeded when trying to connect|ECONNREFUSED|ECONNRESET|DatabaseNotReachable|ConnectionClosed|terminating connection due to administrator command/i;

/**
 * True when `error` (or one of its causes) says the database is unreachable, as opposed to a query that
 * is wrong: route handlers answer 503 then (docs/deploy.md "PostgreSQL outage").
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    if (typeof e !== "object") break;
    const o = e as { code?: unknown; errno?: unknown; message?: unknown; cause?: unknown; kind?: unknown; originalCode?: unknown };
    for (const c of [o.code, o.errno, o.originalCode, o.kind]) if (typeof c === "string" && UNAVAILABLE_CODES.has(c)) return true;
    if (typeof o.message === "string" && UNAVAILABLE_MESSAGES.test(o.message)) return true;
    e = o.cause;
  }
  return false;
}
