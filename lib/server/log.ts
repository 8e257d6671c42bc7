import { createHmac, randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { inspect } from "node:util";
import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { deriveAuthKey } from "@/lib/server/secret";
import { processSlot } from "@/lib/server/process-state";

/** The server's one logger: every record is redacted, pseudonymised and escaped (OWASP ASVS V16). */

export const REDACTED_FIELDS: ReadonlySet<string> = new Set(
  [
    "content", "text", "title", "messages", "message_text", "file", "attachment", "attachmentText",
    "token", "sessionToken", "idToken", "id_token", "access_token", "refresh_token", "csrfToken",
    "cookie", "cookies", "set-cookie", "authorization", "password", "passphrase", "secret", "key",
    "url", "callbackUrl", "body",
    "images", "image", "image_url",
  ].map((k) => k.toLowerCase()),
);

const PSEUDONYMIZED_FIELDS: ReadonlySet<string> = new Set(
  ["email", "identifier", "to", "address", "ip", "clientAddress"].map((k) => k.toLowerCase()),
);

const MAX_STRING = 500;
const MAX_DEPTH = 6;
const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z0-9-]+/g;

let pseudonymKey: Buffer | undefined;

function keyForPseudonyms(): Buffer {
  if (pseudonymKey) return pseudonymKey;
  try {
    pseudonymKey = Buffer.from(deriveAuthKey("log-pseudonym"));
  } catch {
    pseudonymKey = randomBytes(32);
  }
  return pseudonymKey;
}

export function pseudonym(value: string): string {
  const normalized = value.includes("@") ? value.trim().toLowerCase() : value;
  return `h:${createHmac("sha256", keyForPseudonyms()).update(normalized).digest("hex").slice(0, 12)}`;
}

/** Escape control characters and cut to MAX_STRING; addresses become pseudonyms. */
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

function sanitizeRecord(record: Record<string, unknown>): Record<string, unknown> {
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
    // pino's own err serializer would bypass the list.
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
    return pretty({ colorize: true, sync: true, ignore: "pid,hostname", translateTime: "HH:MM:ss" });
  }
  return process.stdout;
}

let root: Logger | undefined;

function rootLogger(): Logger {
  root ??= pino(options(), defaultDestination());
  return root;
}

export function logger(component: string): Logger {
  return rootLogger().child({ component });
}

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

export function securityEvent(event: SecurityEventName, fields: Record<string, unknown> = {}): void {
  const level = event === "auth.sign_in" || event === "auth.sign_out" || event === "account.deleted" ? "info" : "warn";
  logger("security")[level]({ ...fields, event }, event);
}

/** Idempotent. */
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

/** Tests: records to an in-memory list, as production writes them. */
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
