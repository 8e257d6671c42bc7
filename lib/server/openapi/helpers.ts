import { z } from "@/lib/shared/zod";
import type { ZodOpenApiResponsesObject } from "zod-openapi";
import * as r from "@/lib/shared/api/contract";

/** Building blocks of the OpenAPI paths (lib/server/openapi/paths.ts, vault-paths.ts): errors, bodies, security. */

/** Why each status happens, so every operation says the same thing for the same cause. */
const REASONS: Record<number, string> = {
  400: "Invalid request: malformed JSON or a field failing validation (the message names the field).",
  401: "No valid credentials: no session cookie or Google ID token, or an expired/invalid one.",
  403: "Refused: a cross-site request by cookie, a deleted account, or a plan that does not allow it.",
  404: "Not found, or not the caller's (never 403, so ids reveal nothing).",
  405: "Method not allowed.",
  409: "Conflict with the current state.",
  413: "The request body is larger than this operation's limit (x-max-body-bytes).",
  415: "Wrong media type: the body must be JSON (Content-Type: application/json), or the file must be a PDF.",
  422: "The attached PDF could not be read (encrypted, corrupt, without text, a decompression bomb, or too slow to read).",
  429: "A limit was reached; Retry-After says when to try again (seconds).",
  502: "An upstream service (model provider, Stripe, auth sync) failed or cut the answer off.",
  503: "Temporarily unavailable: the database or an identity provider is unreachable, the feature is not configured, or the instance is shutting down. Retry-After when it is transient.",
  504: "The model took too long to answer.",
};

const retryAfterSeconds = z.string().meta({ description: "Seconds to wait before retrying." });
/** 429 always says when; 503 only when the cause is transient (database, draining), not "not configured". */
const retryAfter = { 429: z.object({ "Retry-After": retryAfterSeconds }), 503: z.object({ "Retry-After": retryAfterSeconds.optional() }) };

/** The `{ error }` responses for the given statuses, plus `default` for an unexpected 500. */
export function errors(...statuses: number[]): ZodOpenApiResponsesObject {
  const out: ZodOpenApiResponsesObject = {};
  for (const status of statuses) {
    out[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: REASONS[status] ?? "Error.",
      content: { "application/json": { schema: r.errorSchema } },
      ...(status === 429 || status === 503 ? { headers: retryAfter[status] } : {}),
    };
  }
  out.default = { description: "Unexpected failure (500), logged by kind only.", content: { "application/json": { schema: r.errorSchema } } };
  return out;
}

export function ok(schema: z.ZodType, description = "OK"): ZodOpenApiResponsesObject {
  return { "200": { description, content: { "application/json": { schema } } } };
}

export function jsonBody(schema: z.ZodType, maxBytes: number, required = true) {
  return {
    description: `JSON, at most ${maxBytes} bytes (413 above).`,
    required,
    content: { "application/json": { schema } },
  };
}

/** OpenAPI security requirements: any one of the listed objects suffices; `{}` means none needed. */
export type Security = Record<string, string[]>[];
/** Signed-in callers: the session cookie or a Google ID token. */
export const SIGNED_IN: Security = [{ sessionCookie: [] }, { googleIdToken: [] }];
/** Anyone; credentials, when sent, are read. */
export const ANYONE: Security = [{}, { sessionCookie: [] }, { googleIdToken: [] }];

