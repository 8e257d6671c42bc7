import { z } from "@/lib/shared/zod";
import { chatStreamEventSchemas } from "@/lib/shared/chat/stream-events";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from "zod-openapi";
import { CHAT_BATCH_MAX_IDS } from "@/lib/shared/chat/history-schema";
import { chatRequestSchema, maxChatBodyBytes, type ChatLimits } from "@/lib/shared/chat/turn-schema";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/shared/stripe/schemas";
import { ANYONE, errors, jsonBody, operation, pathsOf, type OperationDoc } from "./helpers";
import { api, chatResultSchema, notReadySchema, type ApiRoute } from "@/lib/shared/api/contract";
import { sharePaths } from "./share-paths";
import { projectPaths } from "./project-paths";
import { memoryPaths } from "./memory-paths";
import { vaultPaths } from "./vault-paths";
import { audioPaths } from "./audio-paths";

// One operation per exported method of each app/api route file, built from its contract entry; this adds
// only ids, words and the statuses particular to a route.

const NEXTAUTH_DESCRIPTION =
  "next-auth 4 driven through lib/server/auth/route.ts: `{nextauth}` is one or more path segments, e.g. " +
  "`csrf`, `providers`, `session`, `signin/email`, `signin/google`, `callback/email`, `callback/google`, `signout`. " +
  "Browser flows answer redirects (302) and HTML; checks made before next-auth answer `{ error }` " +
  "(e-mail sign-in: CSRF token, address, at most EMAIL_SIGNIN_LIMIT_PER_HOUR per address → 429 with Retry-After). HEAD answers 405.";

const CHAT_PDF_DESCRIPTION =
  "A PDF comes in one of two forms, never both (400). `file` (the spec's form): `{ name, type, content }`, content a base64 " +
  "data URL of the PDF; read by the server with pdf-parse in a worker thread, for a standard model only (a model served " +
  "confidentially answers 409: its files are read in the browser), then answered as if its text had come as `document`. " +
  "`document` (the web app's form): `{ name, text, truncated }`, the text the browser extracted with the same code; every " +
  "model (a confidential one takes it inside the encrypted request to /api/confidential/chat). Same limits either way " +
  "(PDF_MAX_BYTES, PDF_MAX_PAGES, PDF_MAX_TEXT_CHARS, PDF_PARSE_TIMEOUT_MS, PDF_MAX_INFLATED_BYTES). A `file` that is not a " +
  "PDF answers 415, one over PDF_MAX_BYTES 413, content that is no base64 data URL 400, an encrypted, damaged or image-only " +
  "PDF, a decompression bomb or one too slow to read 422; a second PDF of the same caller while one is being read 429, a " +
  "full queue of PDF readers 503 (both with Retry-After). Type, size and header are checked before the turn is counted.";

/** The paths for the chat limits the handlers read from config. */
export function apiPaths(limits: ChatLimits): ZodOpenApiPathsObject {
  return {
    "/api/auth/{nextauth}": { get: nextAuth("GET"), post: nextAuth("POST"), head: nextAuth("HEAD") },
    ...pathsOf([...accountOperations(), ...confidentialOperations(), ...chatOperations(limits), ...operationsOperations()]),
    ...vaultPaths(),
    ...sharePaths(),
    ...projectPaths(),
    ...memoryPaths(),
    ...audioPaths(),
  };
}

// next-auth's catch-all, the one route outside the contract.
function nextAuth(method: string): ZodOpenApiOperationObject {
  return {
    operationId: `nextAuth${method}`,
    tags: ["auth"],
    summary: `next-auth (${method})`,
    description: NEXTAUTH_DESCRIPTION,
    security: ANYONE,
    requestParams: { path: z.object({ nextauth: z.string().min(1).meta({ description: "next-auth's action, e.g. signin/email" }) }) },
    responses: {
      "200": { description: "next-auth's answer (JSON or HTML)." },
      "302": { description: "A browser redirect (sign-in flows)." },
      ...errors(400, 403, 405, 413, 429, 502, 503),
    },
  };
}

type Operation = ReturnType<typeof operation>;

function accountOperations(): Operation[] {
  const account = ["account"];
  const billing = ["billing"];
  return [
    operation(api.authIdToken, {
      operationId: "signInWithIdToken",
      tags: ["auth"],
      summary: "Start a session from a Google ID token (docs/product.md §2, /appsignup)",
      responses: {
        "200": {
          description: "Signed in: Set-Cookie carries the session.",
          headers: z.object({ "Set-Cookie": z.string() }),
          content: { "application/json": { schema: api.authIdToken.response } },
        },
      },
      errors: [401, 403, 503],
    }),
    operation(api.authSyncSignedIn, {
      operationId: "authSyncSignedIn",
      tags: ["auth"],
      summary: "Forward a bearer token to AUTH_SYNC_URL (docs/product.md §7); 30 calls a minute",
      errors: [502],
    }),
    operation(api.authSyncSignedOut, {
      operationId: "authSyncSignedOut",
      tags: ["auth"],
      summary: "Forward a sign-out to AUTH_SYNC_URL (docs/product.md §7); 30 calls a minute",
      security: ANYONE,
      errors: [403, 502, 503],
    }),
    operation(api.checkAccountStatus, { operationId: "checkAccountStatus", tags: account, summary: "Whether the caller's account is deleted (docs/product.md §7)" }),
    operation(api.checkStripeStatus, { operationId: "checkStripeStatus", tags: billing, summary: "The caller's stored subscription (docs/product.md §7); no Stripe call" }),
    operation(api.createCheckoutSession, {
      operationId: "createCheckoutSession",
      tags: billing,
      summary: "A Stripe Checkout session priced for the caller's country (docs/product.md §7, §9)",
      errors: [409, 502],
    }),
    operation(api.createAccount, { operationId: "createAccount", tags: account, summary: "Set the account up after sign-in (docs/product.md §4, §7); idempotent" }),
    operation(api.customerPortal, {
      operationId: "createCustomerPortalSession",
      tags: billing,
      summary: "A Stripe Billing Portal session (docs/product.md §7)",
      bodyOptional: true,
      errors: [404, 502],
    }),
    operation(api.deleteUser, {
      operationId: "deleteUser",
      tags: account,
      summary: "Delete the caller's account: cancel, crypto-shred, revoke sessions (docs/product.md §7)",
      bodyOptional: true,
      responses: {
        "200": {
          description: "Deleted; the session cookie is cleared.",
          headers: z.object({ "Set-Cookie": z.string() }),
          content: { "application/json": { schema: api.deleteUser.response } },
        },
      },
    }),
    operation(api.getCountry, { operationId: "getCountry", tags: billing, summary: "The caller's country for pricing (docs/product.md §7); never stored" }),
    operation(api.me, { operationId: "me", tags: account, summary: "Who the caller is signed in as; sets no cookie" }),
    operation(api.stripeWebhook, {
      operationId: "stripeWebhook",
      tags: billing,
      summary: "Stripe's events, verified on the raw body (Stripe-Signature); idempotent",
      requestParams: { header: z.object({ "stripe-signature": z.string() }) },
      maxBytes: WEBHOOK_MAX_BODY_BYTES,
      errors: [400, 413],
      requestBody: {
        description: `A Stripe event as Stripe sends it, at most ${WEBHOOK_MAX_BODY_BYTES} bytes.`,
        required: true,
        content: { "application/json": { schema: z.object({ id: z.string(), type: z.string() }).passthrough() } },
      },
      responses: { "200": { description: "Applied, or already applied.", content: { "application/json": { schema: api.stripeWebhook.response } } } },
    }),
  ];
}

function confidentialOperations(): Operation[] {
  return [
    operation(api.confidentialAttestation, {
      operationId: "confidentialAttestation",
      tags: ["chat"],
      summary: "The confidential enclave's attestation, relayed for the browser to verify",
      description:
        "Development trust: the enclave's own /.well-known/tinfoil-attestation document, bytes unchanged. Production trust: a " +
        "Tinfoil AttestationBundle assembled by @tinfoilsh/verifier. The server says nothing about validity " +
        "(docs/confidential-inference.md). 404 when confidential inference is off.",
      responses: {
        "200": {
          description: "The attestation document or bundle (Cache-Control: no-store).",
          content: { "application/json": { schema: z.record(z.string(), z.unknown()).meta({ description: "Unverified attestation material" }) } },
        },
      },
      errors: [404, 502],
    }),
    operation(api.confidentialChat, {
      operationId: "confidentialChat",
      tags: ["chat"],
      summary: "One EHBP-encrypted chat turn, relayed byte for byte to the attested enclave",
      description:
        "The body is EHBP ciphertext (HPKE, RFC 9180) that only the enclave can read; it is never parsed, logged or stored. " +
        "Session or visitor, plan and daily quota are checked as on /api/ns/chat and /api/ns/chat_user, against the model " +
        "named in X-Hush-Model. Any status not listed here is the enclave's own answer, passed through " +
        "(docs/confidential-inference.md).",
      security: ANYONE,
      requestParams: {
        header: z.object({
          "X-Hush-Model": z.string().meta({ description: "Public model code the plan is checked against (docs/product.md §9)" }),
          "Ehbp-Encapsulated-Key": z.string().regex(/^[0-9a-fA-F]{64}$/).meta({ description: "HPKE encapsulated key, hex (EHBP SPEC.md §4.1)" }),
        }),
      },
      requestBody: {
        description: "EHBP-encrypted chat-completions request, streamed or not (413 above CONFIDENTIAL_MAX_REQUEST_BYTES).",
        required: true,
        content: { "application/octet-stream": { schema: z.string().meta({ format: "binary" }) } },
      },
      responses: {
        "200": {
          description: "The enclave's encrypted answer, streamed unchanged.",
          headers: z.object({ "Ehbp-Response-Nonce": z.string().meta({ description: "EHBP response nonce, hex (EHBP SPEC.md §4.2)" }) }),
          content: { "application/octet-stream": { schema: z.string().meta({ format: "binary" }) } },
        },
      },
      errors: [400, 401, 403, 404, 413, 429, 502, 503, 504],
    }),
  ];
}

function chatOperations(limits: ChatLimits): Operation[] {
  const tags = ["chat"];
  const chatMax = maxChatBodyBytes(limits);
  // The body depends on the configured limits: the handlers' own schema.
  const chatCall = (doc: OperationDoc) =>
    ({ ...doc, tags, description: CHAT_PDF_DESCRIPTION, requestBody: jsonBody(chatRequestSchema(limits), chatMax), responses: CHAT_RESPONSES }) satisfies OperationDoc;
  const chatLimited = (route: ApiRoute): ApiRoute => ({ ...route, maxBytes: chatMax });
  return [
    operation(chatLimited(api.chatVisitor), chatCall({
      operationId: "chatVisitor",
      tags,
      summary: "The visitor chat call (docs/product.md §7): Basic model, nothing stored, daily visitor quota",
      errors: [400, 403, 409, 413, 415, 422, 429, 502, 503, 504],
    })),
    operation(chatLimited(api.chatSignedIn), chatCall({
      operationId: "chatSignedIn",
      tags,
      summary: "The signed-in chat call (docs/product.md §7): Pro model for Pro; stores nothing (see /api/ns/chat_save); plan's daily quota",
      errors: [400, 404, 409, 413, 415, 422, 429, 502, 504],
    })),
    operation(api.chatHistoryList, { operationId: "listChats", tags, summary: "The caller's saved chats, newest first, a page at a time (docs/product.md §7)" }),
    operation(api.chatHistoryGet, {
      operationId: "getChat",
      tags,
      summary: "One saved chat with its messages (docs/product.md §7)",
      requestParams: { path: z.object({ chatId: z.string().min(1).meta({ description: "The chat's id, a lowercase UUID (any other value: 404)" }) }) },
      errors: [404],
    }),
    operation(api.chatHistoryBatch, {
      operationId: "getChats",
      tags,
      summary:
        `Up to ${CHAT_BATCH_MAX_IDS} of the caller's saved chats with their messages, each as getChat returns it (search and export). ` +
        "Ids that are not the caller's chats are left out; chats left out for the response's size bound are listed in remaining_chat_ids, to ask for again",
    }),
    operation(api.deleteChat, { operationId: "deleteChat", tags, summary: "Delete one of the caller's chats (docs/product.md §7)", errors: [404] }),
    operation(api.chatTitle, {
      operationId: "renameChat",
      tags,
      summary: "Rename one of the caller's chats: the new display name sealed in the browser under the vault key; the chat keeps its place",
      errors: [404],
    }),
  ];
}

function operationsOperations(): Operation[] {
  const tags = ["operations"];
  return [
    operation(api.health, { operationId: "health", tags, summary: "Liveness: the process answers (never cached)" }),
    operation(api.ready, {
      operationId: "ready",
      tags,
      summary: "Readiness: database, migrations, Redis (when configured), not draining",
      responses: {
        "200": { description: "OK", content: { "application/json": { schema: api.ready.response } } },
        "503": { description: "Not ready; `checks` names the failing components.", content: { "application/json": { schema: notReadySchema } } },
      },
    }),
    operation(api.openApiDocument, {
      operationId: "openApiDocument",
      tags,
      summary: "This document (cacheable; ETag)",
      responses: {
        "200": { description: "The OpenAPI 3.1 document.", headers: z.object({ ETag: z.string() }), content: { "application/json": { schema: z.object({}).passthrough() } } },
        "304": { description: "Not modified (If-None-Match matched the ETag)." },
      },
    }),
  ];
}

const [firstEvent, ...otherEvents] = Object.entries(chatStreamEventSchemas).map(([name, data]) =>
  z.strictObject({ event: z.literal(name), data: data as z.ZodType }),
);
const chatStreamEventSchema = z
  .discriminatedUnion("event", [firstEvent!, ...otherEvents])
  .meta({ id: "ChatStreamEvent", description: "One SSE event: `event: <name>` then `data: <JSON>`; the stream is a sequence of these." });

// JSON, or Server-Sent Events with `Accept: text/event-stream`.
const CHAT_RESPONSES: ZodOpenApiResponsesObject = {
  "200": {
    description:
      "The answer. JSON by default; with `Accept: text/event-stream`, Server-Sent Events: `delta` `{ text }` per piece; with " +
      "search, `step` before each search step runs and `search` (the record so far) after it; then `done` with the JSON below " +
      "once, or `tool_calls` `{ tool_calls, token, steps?, search? }` when the turn pauses for device tools (JSON: that object; " +
      "`steps` the server-run calls with their results and `search` the record so far, both to echo in `continuation`), or " +
      "`error` `{ error, status }` if the " +
      "provider fails after streaming began (nothing saved).",
    content: {
      "application/json": { schema: chatResultSchema },
      "text/event-stream": { schema: chatStreamEventSchema },
    },
  },
};
