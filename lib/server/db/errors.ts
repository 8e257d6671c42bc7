import { AppError } from "@/lib/shared/errors";

/** The data layer's failures; messages carry ids at most, never user content. */

/** Unknown or another user's: 404 either way. */
export const chatNotFound = () => new AppError("not_found:chat", "Chat not found.");

export const invalidCursor = () => new AppError("bad_request:cursor", "Invalid pagination cursor.");

export const invalidInput = (message: string) => new AppError("bad_request:input", message);

export const migrationFailed = (message: string, cause?: unknown) => new AppError("internal:migration", message, { cause });

export const databaseOpenFailed = (message: string, cause?: unknown) => new AppError("internal:database_open", message, { cause });

export const vaultExists = () => new AppError("conflict:vault_exists", "The vault already exists.");

export const noVault = () => new AppError("conflict:no_vault", "Turn on Save history first.");

export const saveConflict = (message = "The chat changed meanwhile. Reload it and try again.") => new AppError("conflict:save", message);

/** 409: the browser reads the chat again, checks it, and writes again. */
export const chatVersionConflict = () =>
  new AppError("conflict:chat_version", "The chat changed on another device meanwhile. Reload it and try again.");

/** 409: the browser reads the manifest again, merges and writes again. */
export const manifestConflict = () =>
  new AppError("conflict:manifest", "Your history changed on another device meanwhile. Reload and try again.");

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ENOTFOUND", "EAI_AGAIN",
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, connection_exception.
  "57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006",
  // Prisma: can't reach server, timed out, connection closed, pool timeout.
  "P1001", "P1002", "P1017", "P2024",
  "unavailable:data_dir_in_use",
]);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection is closed|Can't reach database|timeout exceeded when trying to connect|ECONNREFUSED|ECONNRESET|DatabaseNotReachable|ConnectionClosed|terminating connection due to administrator command/i;

/** docs/deploy.md "PostgreSQL outage". */
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

export const DISK_FULL_MESSAGE = "The server has run out of disk space; your message was not saved";

/** 507: nothing was stored. */
export const diskFull = (cause?: unknown) => new AppError("insufficient_storage:disk_full", DISK_FULL_MESSAGE, { cause });

const DISK_FULL_CODES = new Set(["53100", "ENOSPC"]);
const DISK_FULL_MESSAGES = /No space left on device|\bENOSPC\b/i;

/** Also through causes and Prisma's `meta`. */
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
