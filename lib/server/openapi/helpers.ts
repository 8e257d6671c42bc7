import { z } from "@/lib/shared/zod";
import type { ZodObjectInput, ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from "zod-openapi";
import * as r from "@/lib/shared/api/contract";
import type { ApiRoute } from "@/lib/shared/api/contract";

// One reason per status, so every operation says the same thing for the same cause.
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
  507: "The server has run out of disk space; nothing was stored. Send it again once space is freed (docs/issues.md #53).",
};

const retryAfterSeconds = z.string().meta({ description: "Seconds to wait before retrying." });
// 503 says when only for a transient cause, not "not configured".
const retryAfter = { 429: z.object({ "Retry-After": retryAfterSeconds }), 503: z.object({ "Retry-After": retryAfterSeconds.optional() }) };

/** The `{ error }` responses, plus `default` for an unexpected 500. */
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

function ok(schema: z.ZodType, description = "OK"): ZodOpenApiResponsesObject {
  return { "200": { description, content: { "application/json": { schema } } } };
}

export function jsonBody(schema: z.ZodType, maxBytes: number, required = true) {
  return {
    description: `JSON, at most ${maxBytes} bytes (413 above).`,
    required,
    content: { "application/json": { schema } },
  };
}

/** Any one of the listed objects suffices; `{}` means none needed. */
export type Security = Record<string, string[]>[];
const SIGNED_IN: Security = [{ sessionCookie: [] }, { googleIdToken: [] }];
export const ANYONE: Security = [{}, { sessionCookie: [] }, { googleIdToken: [] }];


const SECURITY: Record<ApiRoute["auth"], Security> = { none: [{}], optional: ANYONE, session: SIGNED_IN, "in-statement": SIGNED_IN };

/** What the document adds to a contract entry. */
export interface OperationDoc {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  /** Beyond those the entry implies. */
  errors?: number[];
  responses?: ZodOpenApiResponsesObject;
  /** When not what `auth` implies. */
  security?: Security;
  requestParams?: ZodOpenApiOperationObject["requestParams"];
  requestBody?: ZodOpenApiOperationObject["requestBody"];
  bodyOptional?: true;
  /** Bytes, for a body the handler reads itself. */
  maxBytes?: number;
}

/** One operation from its contract entry, with the statuses the entry implies. @returns [path, lowercase method, operation] */
export function operation(route: ApiRoute, doc: OperationDoc): [string, string, ZodOpenApiOperationObject] {
  const implied: number[] = [];
  if (route.body && !doc.requestBody) implied.push(400, 413, 415);
  if (route.query) implied.push(400);
  if (route.auth === "session" || (route.auth === "in-statement" && !doc.security)) {
    implied.push(401, 503);
    // A GET that admits deleted accounts has neither cause of 403.
    if (!(route.allowDeleted && route.method === "GET")) implied.push(403);
  }
  if (route.auth === "optional") implied.push(503);
  if (route.rateLimit) implied.push(429);
  // Every write can meet a draining instance or a full disk.
  if (route.method !== "GET") implied.push(503, 507);
  const { errors: particular = [], responses, bodyOptional, requestParams, requestBody, security, maxBytes = route.maxBytes, ...words } = doc;
  const statuses = [...new Set([...implied, ...particular])].sort((a, b) => a - b);
  const op: ZodOpenApiOperationObject = {
    ...words,
    security: security ?? SECURITY[route.auth],
    ...(maxBytes !== undefined ? { "x-max-body-bytes": maxBytes } : {}),
    ...(route.query || requestParams ? { requestParams: { ...(route.query ? { query: route.query as ZodObjectInput } : {}), ...requestParams } } : {}),
    ...(requestBody ? { requestBody } : route.body && route.maxBytes !== undefined ? { requestBody: jsonBody(route.body, route.maxBytes, !bodyOptional) } : {}),
    responses: { ...(responses ?? ok(route.response)), ...(statuses.length ? errors(...statuses) : {}) },
  };
  return [route.path, route.method.toLowerCase(), op];
}

export function pathsOf(operations: [string, string, ZodOpenApiOperationObject][]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const [path, method, op] of operations) paths[path] = { ...paths[path], [method]: op };
  return paths;
}

export function created(route: ApiRoute, description = "Created."): ZodOpenApiResponsesObject {
  return { "201": { description, content: { "application/json": { schema: route.response } } } };
}
