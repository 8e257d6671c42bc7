import { AppError } from "@/lib/shared/errors";

/**
 * The data layer's failures, as AppError codes (lib/shared/errors.ts). Messages carry ids at most, never user
 * content.
 */

/** The chat does not exist or belongs to another user; callers answer 404 either way. */
export const chatNotFound = () => new AppError("not_found:chat", "Chat not found.");

/** A pagination cursor that this module did not issue (400, "bad_request:cursor"). */
export const invalidCursor = () => new AppError("bad_request:cursor", "Invalid pagination cursor.");

/** Input that breaks a data-layer rule (unknown role, bad limit...); the message names the rule only (400). */
export const invalidInput = (message: string) => new AppError("bad_request:input", message);

/** A migration failed or the migration history needs manual attention ("internal:migration"). */
export const migrationFailed = (message: string, cause?: unknown) => new AppError("internal:migration", message, { cause });

/**
 * The embedded database could not be opened ("internal:database_open"): `message` carries PostgreSQL's own
 * words (its log) and what to do next. Start-up exits non-zero with it (lib/server/startup.ts).
 */
export const databaseOpenFailed = (message: string, cause?: unknown) => new AppError("internal:database_open", message, { cause });

/** The vault already exists (setup twice, or from two tabs at once): 409. */
export const vaultExists = () => new AppError("conflict:vault_exists", "The vault already exists.");

/** The user has no vault yet: saving needs one (docs/product.md §4 Save history): 409. */
export const noVault = () => new AppError("conflict:no_vault", "Turn on Save history first.");

/** A save raced another one (the positions moved): the browser reloads and retries (409). */
export const saveConflict = (message = "The chat changed meanwhile. Reload it and try again.") => new AppError("conflict:save", message);

/**
 * The chat's header was written by another device since the browser read it (compare-and-set on
 * its version): the browser reads the chat again, checks it, and writes again (409).
 */
export const chatVersionConflict = () =>
  new AppError("conflict:chat_version", "The chat changed on another device meanwhile. Reload it and try again.");

/**
 * The manifest was written by another device since the browser read it: the browser reads it
 * again, merges and writes again (409).
 */
export const manifestConflict = () =>
  new AppError("conflict:manifest", "Your history changed on another device meanwhile. Reload and try again.");

/** Network and server-state codes meaning "the database cannot be reached right now". */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ENOTFOUND", "EAI_AGAIN",
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, and the connection_exception class.
  "57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006",
  // Prisma: can't reach server, timed out, server closed the connection, connection pool timeout.
  "P1001", "P1002", "P1017", "P2024",
  // The embedded folder held by another process (lib/server/db/data-dir-lock.ts): its message names paths.
  "unavailable:data_dir_in_use",
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

/** What a write refused for lack of disk space answers (507, docs/issues.md #53). */
export const DISK_FULL_MESSAGE = "The server has run out of disk space; your message was not saved";

/** The 507 of a write that failed for lack of disk space: nothing was stored (docs/issues.md #53). */
export const diskFull = (cause?: unknown) => new AppError("insufficient_storage:disk_full", DISK_FULL_MESSAGE, { cause });

/**
 * PostgreSQL's disk_full (class 53 "insufficient resources"; its other codes, out of memory and too many
 * connections, are not about space) and the OS's ENOSPC.
 */
const DISK_FULL_CODES = new Set(["53100", "ENOSPC"]);
/** PostgreSQL and PGlite say "could not extend file ...: No space left on device" or "could not write to file ...: No space left on device". */
const DISK_FULL_MESSAGES = /No space left on device|\bENOSPC\b/i;

/**
 * True when `error` (or one of its causes, or the driver error Prisma keeps in `meta`) says the write
 * failed for lack of disk space: SQLSTATE 53100, errno ENOSPC, or "No space left on device". Route
 * handlers answer 507 then (lib/server/http.ts errorResponse; docs/issues.md #53).
 */
export function isDiskFull(error: unknown): boolean {
  const queue: unknown[] = [error];
  for (let seen = 0; queue.length && seen < 12; seen++) {
    const e = queue.shift();
    if (!e || typeof e !== "object") continue;
    const o = e as { code?: unknown; errno?: unknown; message?: unknown; cause?: unknown; originalCode?: unknown; originalMessage?: unknown; meta?: unknown };
    for (const c of [o.code, o.errno, o.originalCode]) if ((typeof c === "string" || typeof c === "number") && DISK_FULL_CODES.has(String(c))) return true;
    for (const m of [o.message, o.originalMessage]) if (typeof m === "string" && DISK_FULL_MESSAGES.test(m)) return true;
    queue.push(o.cause);
    if (o.meta && typeof o.meta === "object") queue.push(...Object.values(o.meta));
  }
  return false;
}
