import { createHmac, randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { inspect } from "node:util";
import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { deriveAuthKey } from "@/lib/server/secret";
import { processSlot } from "@/lib/server/process-state";

/**
 * The server's one logger: structured JSON lines (pino) on stdout in production; the same records
 * made readable by pino-pretty in development. Every record passes one redaction list and one
 * escaping step, so nothing a user wrote can reach the log or forge a line (OWASP ASVS
 * V16):
 * - fields named in REDACTED_FIELDS (message text, attachment text, titles, tokens, cookies,
 *   secrets) are replaced by "[redacted]" at any depth;
 * - fields named in PSEUDONYMIZED_FIELDS (e-mail addresses, client addresses) and any e-mail address
 *   found inside a string become a stable keyed hash (`pseudonym()`), so events can be correlated
 *   without the address;
 * - every string (the message included) has its control characters escaped ("\n" becomes the two
 *   characters \ and n) and is cut to MAX_STRING characters.
 * Usage: `logger("db").error({ err }, "idle connection error")`; `securityEvent("auth.sign_out", {...})`.
 */

/** Field names whose values never reach the log. */
export const REDACTED_FIELDS: ReadonlySet<string> = new Set(
  [
    "content", "text", "title", "messages", "message_text", "file", "attachment", "attachmentText",
    "token", "sessionToken", "idToken", "id_token", "access_token", "refresh_token", "csrfToken",
    "cookie", "cookies", "set-cookie", "authorization", "password", "passphrase", "secret", "key",
    "url", "callbackUrl", "body",
    // A message's images (data URLs) never reach the log either.
    "images", "image", "image_url",
  ].map((k) => k.toLowerCase()),
);

/** Field names whose values are logged only as a keyed hash. */
export const PSEUDONYMIZED_FIELDS: ReadonlySet<string> = new Set(
  ["email", "identifier", "to", "address", "ip", "clientAddress"].map((k) => k.toLowerCase()),
);

/** Longest string kept in a log record; the rest is cut (bounds what one request can write). */
const MAX_STRING = 500;
const MAX_DEPTH = 6;
const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z0-9-]+/g;

let pseudonymKey: Buffer | undefined;

/**
 * The key of `pseudonym()`: derived from the auth secret (stable across restarts, so hashes
 * correlate over time) when it can be read, else random for this process.
 */
function keyForPseudonyms(): Buffer {
  if (pseudonymKey) return pseudonymKey;
  try {
    // Read at first use, not at import: the logger must work when the configuration is invalid.
    pseudonymKey = Buffer.from(deriveAuthKey("log-pseudonym"));
  } catch {
    pseudonymKey = randomBytes(32);
  }
  return pseudonymKey;
}

/**
 * A stable keyed hash of a value for the log (HMAC-SHA-256 under a key derived from NEXTAUTH_SECRET,
 * first 12 hex digits): equal inputs give equal outputs, and without the secret the input cannot be
 * recovered by guessing. E-mail addresses are lower-cased first.
 */
export function pseudonym(value: string): string {
  const normalized = value.includes("@") ? value.trim().toLowerCase() : value;
  return `h:${createHmac("sha256", keyForPseudonyms()).update(normalized).digest("hex").slice(0, 12)}`;
}

/** Escape control characters (CR, LF, ESC, U+2028...) and cut to MAX_STRING; addresses become pseudonyms. */
export function escapeForLog(value: string): string {
  const cut = value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  return cut
    .replace(EMAIL, (m) => pseudonym(m))
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
      if (c === "\n") return "\\n";
      if (c === "\r") return "\\r";
      if (c === "\t") return "\\t";
      return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
    });
}

function clean(value: unknown, key: string | undefined, depth: number): unknown {
  if (key !== undefined) {
    const k = key.toLowerCase();
    if (REDACTED_FIELDS.has(k)) return value === undefined || value === null ? value : "[redacted]";
    if (PSEUDONYMIZED_FIELDS.has(k) && typeof value === "string") return pseudonym(value);
  }
  if (typeof value === "string") return escapeForLog(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[deep]";
  if (value instanceof Error) {
    return clean({ type: value.name, message: value.message, stack: value.stack }, undefined, depth + 1);
  }
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => clean(v, undefined, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[escapeForLog(k)] = clean(v, k, depth + 1);
  return out;
}

/** Apply the redaction list and escaping to one record (exported for tests of the list itself). */
export function sanitizeRecord(record: Record<string, unknown>): Record<string, unknown> {
  return clean(record, undefined, 0) as Record<string, unknown>;
}

function options(): pino.LoggerOptions {
  return {
    level: "info",
    base: { pid: process.pid },
    messageKey: "msg",
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (record) => sanitizeRecord(record),
    },
    // pino's own err serializer would bypass the list: errors go through sanitizeRecord instead.
    serializers: { err: (e: unknown) => e },
    hooks: {
      logMethod(args, method) {
        const escaped = args.map((a) => (typeof a === "string" ? escapeForLog(a) : a)) as Parameters<typeof method>;
        method.apply(this, escaped);
      },
    },
  };
}

function defaultDestination(): DestinationStream {
  if (process.env.NODE_ENV === "development") {
    // A synchronous in-process pretty printer (no transport worker thread): a readable `npm run dev`.
    return pretty({ colorize: true, sync: true, ignore: "pid,hostname", translateTime: "HH:MM:ss" });
  }
  // process.stdout (synchronous for files and pipes): records stay in order with anything else printed.
  return process.stdout;
}

let root: Logger | undefined;

function rootLogger(): Logger {
  root ??= pino(options(), defaultDestination());
  return root;
}

/** A logger for one part of the server, e.g. logger("db"); records carry `component`. */
export function logger(component: string): Logger {
  return rootLogger().child({ component });
}

/** Security events (ASVS V16.3), each one `{ component: "security", event, ... }` record. */
export type SecurityEventName =
  | "auth.sign_in"
  | "auth.sign_in_failed"
  | "auth.sign_out"
  | "auth.session_revoked"
  | "http.unauthorized"
  | "http.forbidden"
  | "http.rate_limited"
  | "account.deleted"
  | "stripe.webhook_signature_failed"
  | "confidential.model_mismatch";

/** Log a security event; `fields` pass the redaction list like any record (e-mails are hashed). */
export function securityEvent(event: SecurityEventName, fields: Record<string, unknown> = {}): void {
  const level = event === "auth.sign_in" || event === "auth.sign_out" || event === "account.deleted" ? "info" : "warn";
  logger("security")[level]({ ...fields, event }, event);
}

/**
 * Route `console.*` (Next.js's own request errors, libraries that print) through the logger, so the
 * server's output stays one escaped JSON record per line whatever those messages quote. Called once
 * at server start-up (lib/server/startup.ts); idempotent.
 */
export function routeConsoleToLogger(): void {
  const routed = processSlot<boolean>("consoleRouted");
  if (routed.value) return;
  routed.value = true;
  const levels = { log: "info", info: "info", debug: "debug", warn: "warn", error: "error", trace: "debug" } as const;
  for (const [method, level] of Object.entries(levels) as [keyof typeof levels, (typeof levels)[keyof typeof levels]][]) {
    console[method] = (...args: unknown[]) => {
      const text = args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : typeof a === "string" ? a : inspect(a, { depth: 3 }))).join(" ");
      logger("console")[level](text);
    };
  }
}

/**
 * Tests: send every record to an in-memory list (JSON lines, exactly as production writes them).
 * Returns the list and a function that restores the normal destination.
 */
export function captureLogsForTests(): { lines: string[]; records: () => Record<string, unknown>[]; restore: () => void } {
  const lines: string[] = [];
  let partial = "";
  const sink = new Writable({
    write(chunk, _enc, done) {
      const text = partial + String(chunk);
      const parts = text.split("\n");
      partial = parts.pop() ?? "";
      lines.push(...parts);
      done();
    },
  });
  const previous = root;
  root = pino(options(), sink);
  return {
    lines,
    records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    restore: () => {
      root = previous;
    },
  };
}
