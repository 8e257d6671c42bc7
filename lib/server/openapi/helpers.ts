import { z } from "@/lib/shared/zod";
import type { ZodObjectInput, ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from "zod-openapi";
import * as r from "@/lib/shared/api/contract";
import type { ApiRoute } from "@/lib/shared/api/contract";

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
  507: "The server has run out of disk space; nothing was stored. Send it again once space is freed (docs/issues.md #53).",
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

/** OpenAPI security requirements: any one of the listed objects suffices; `{}` means none needed. */
export type Security = Record<string, string[]>[];
/** Signed-in callers: the session cookie or a Google ID token. */
const SIGNED_IN: Security = [{ sessionCookie: [] }, { googleIdToken: [] }];
/** Anyone; credentials, when sent, are read. */
export const ANYONE: Security = [{}, { sessionCookie: [] }, { googleIdToken: [] }];


/** Who may call, from the contract entry's `auth` (lib/shared/api/contract.ts AuthMode). */
const SECURITY: Record<ApiRoute["auth"], Security> = { none: [{}], optional: ANYONE, session: SIGNED_IN, "in-statement": SIGNED_IN };

/** What the document adds to a contract entry: names, words, and the statuses particular to the route. */
export interface OperationDoc {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  /** Statuses beyond those the entry implies (see `operation`). */
  errors?: number[];
  /** The success answers, when not a 200 with the entry's response schema. */
  responses?: ZodOpenApiResponsesObject;
  /** Who may call, when not what `auth` implies (a route that reads its session in its statement but admits visitors). */
  security?: Security;
  requestParams?: ZodOpenApiOperationObject["requestParams"];
  /** The body, when it is not the entry's JSON schema (ciphertext, Stripe's events). */
  requestBody?: ZodOpenApiOperationObject["requestBody"];
  /** The JSON body may be left out. */
  bodyOptional?: true;
  /** Body bytes accepted, for a body the handler reads itself (`requestBody`). */
  maxBytes?: number;
}

/**
 * One OpenAPI operation from its contract entry: security from `auth`, the JSON body and x-max-body-bytes
 * from `body`/`maxBytes`, the query from `query`, the 200 from `response`, and the statuses each of them
 * implies (a body: 400, 413, 415; a query: 400; a session: 401, 403, 503; a visitor's optional session: 503;
 * a rate limit: 429; a write, any method but GET: 503 while the instance drains, 507 when the disk is full),
 * with the route's own from `doc.errors`.
 * @returns [path, lowercase method, operation]
 */
export function operation(route: ApiRoute, doc: OperationDoc): [string, string, ZodOpenApiOperationObject] {
  const implied: number[] = [];
  if (route.body && !doc.requestBody) implied.push(400, 413, 415);
  if (route.query) implied.push(400);
  if (route.auth === "session" || (route.auth === "in-statement" && !doc.security)) {
    implied.push(401, 503);
    // 403: a deleted account, or a cross-site request by cookie (a GET that admits deleted accounts has neither).
    if (!(route.allowDeleted && route.method === "GET")) implied.push(403);
  }
  if (route.auth === "optional") implied.push(503);
  if (route.rateLimit) implied.push(429);
  // Every write goes through lib/server/lifecycle.ts beginWrite and lib/server/http.ts errorResponse (docs/issues.md #53).
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

/** The operations grouped by path, as the document's `paths`. */
export function pathsOf(operations: [string, string, ZodOpenApiOperationObject][]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const [path, method, op] of operations) paths[path] = { ...paths[path], [method]: op };
  return paths;
}

/** A 201 answer with `route`'s response schema. */
export function created(route: ApiRoute, description = "Created."): ZodOpenApiResponsesObject {
  return { "201": { description, content: { "application/json": { schema: route.response } } } };
}
