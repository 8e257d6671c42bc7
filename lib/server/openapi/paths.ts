import { z } from "@/lib/shared/zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from "zod-openapi";
import { CHAT_BATCH_MAX_IDS } from "@/lib/shared/chat/history-schema";
import { chatRequestSchema, maxChatBodyBytes, type ChatLimits } from "@/lib/server/chat/schema";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/shared/stripe/schemas";
import { ANYONE, errors, jsonBody, ok, SIGNED_IN } from "./helpers";
import { api, chatResultSchema, notReadySchema } from "@/lib/shared/api/contract";
import { sharePaths } from "./share-paths";
import { projectPaths } from "./project-paths";
import { memoryPaths } from "./memory-paths";
import { vaultPaths } from "./vault-paths";

/**
 * The paths of the OpenAPI document, one entry per exported method of each app/api route file
 * (tests/api/openapi.test.ts checks both directions). Request and response schemas and body limits come
 * from the API contract (lib/shared/api/contract.ts `api`), the objects the handlers validate and answer with;
 * this file adds only what a document needs beyond them (ids, summaries, error statuses).
 */

const NEXTAUTH_DESCRIPTION =
  "next-auth 4 driven through lib/server/auth/route.ts: `{nextauth}` is one or more path segments, e.g. " +
  "`csrf`, `providers`, `session`, `signin/email`, `signin/google`, `callback/email`, `callback/google`, `signout`. " +
  "Browser flows answer redirects (302) and HTML; checks made before next-auth answer `{ error }` " +
  "(e-mail sign-in: CSRF token, address, at most EMAIL_SIGNIN_LIMIT_PER_HOUR per address → 429 with Retry-After). HEAD answers 405.";

/** The paths object for the given chat limits (the same limits the handlers read from config). */
export function apiPaths(limits: ChatLimits): ZodOpenApiPathsObject {
  const chatBody = chatRequestSchema(limits);
  const chatMax = maxChatBodyBytes(limits);
  const chatResponses: ZodOpenApiResponsesObject = {
    "200": {
      description:
        "The answer. JSON by default; with `Accept: text/event-stream`, Server-Sent Events: `delta` `{ text }` per piece, " +
        "`done` with the JSON below once, or `error` `{ error, status }` if the provider fails after streaming began (nothing saved).",
      content: {
        "application/json": { schema: chatResultSchema },
        "text/event-stream": { schema: z.string().meta({ description: "SSE: event delta | done | error" }) },
      },
    },
  };
  const nextAuth = (method: string): ZodOpenApiOperationObject => ({
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
  });

  return {
    "/api/auth/{nextauth}": { get: nextAuth("GET"), post: nextAuth("POST"), head: nextAuth("HEAD") },
    "/api/auth/id-token": {
      post: {
        operationId: "signInWithIdToken",
        tags: ["auth"],
        summary: "Start a session from a Google ID token (docs/product.md §2, /appsignup)",
        security: [{}],
        "x-max-body-bytes": api.authIdToken.maxBytes,
        requestBody: jsonBody(api.authIdToken.body, api.authIdToken.maxBytes),
        responses: {
          "200": {
            description: "Signed in: Set-Cookie carries the session.",
            headers: z.object({ "Set-Cookie": z.string() }),
            content: { "application/json": { schema: api.authIdToken.response } },
          },
          ...errors(400, 401, 403, 413, 415, 503),
        },
      },
    },
    "/api/auth/sync": {
      post: {
        operationId: "authSyncSignedIn",
        tags: ["auth"],
        summary: "Forward a bearer token to AUTH_SYNC_URL (docs/product.md §7); 30 calls a minute",
        security: SIGNED_IN,
        responses: { ...ok(api.authSyncSignedIn.response), ...errors(401, 403, 429, 502, 503) },
      },
      delete: {
        operationId: "authSyncSignedOut",
        tags: ["auth"],
        summary: "Forward a sign-out to AUTH_SYNC_URL (docs/product.md §7); 30 calls a minute",
        security: ANYONE,
        responses: { ...ok(api.authSyncSignedOut.response), ...errors(403, 429, 502, 503) },
      },
    },
    "/api/confidential/attestation": {
      get: {
        operationId: "confidentialAttestation",
        tags: ["chat"],
        summary: "The confidential enclave's attestation, relayed for the browser to verify (docs/issues.md #20)",
        description:
          "Development trust: the enclave's own /.well-known/tinfoil-attestation document, bytes unchanged. Production trust: a " +
          "Tinfoil AttestationBundle assembled by @tinfoilsh/verifier. The server says nothing about validity " +
          "(docs/confidential-inference.md). 404 when confidential inference is off.",
        security: [{}],
        responses: {
          "200": {
            description: "The attestation document or bundle (Cache-Control: no-store).",
            content: { "application/json": { schema: z.record(z.string(), z.unknown()).meta({ description: "Unverified attestation material" }) } },
          },
          ...errors(404, 502),
        },
      },
    },
    "/api/confidential/chat": {
      post: {
        operationId: "confidentialChat",
        tags: ["chat"],
        summary: "One EHBP-encrypted chat turn, relayed byte for byte to the attested enclave (docs/issues.md #20)",
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
          ...errors(400, 401, 403, 404, 413, 429, 502, 503, 504),
        },
      },
    },
    "/api/check_account_status": {
      get: {
        operationId: "checkAccountStatus",
        tags: ["account"],
        summary: "Whether the caller's account is deleted (docs/product.md §7)",
        security: SIGNED_IN,
        responses: { ...ok(api.checkAccountStatus.response), ...errors(401, 503) },
      },
    },
    "/api/check_stripe_status": {
      get: {
        operationId: "checkStripeStatus",
        tags: ["billing"],
        summary: "The caller's stored subscription (docs/product.md §7); no Stripe call",
        security: SIGNED_IN,
        responses: { ...ok(api.checkStripeStatus.response), ...errors(401, 403, 503) },
      },
    },
    "/api/create-checkout-session": {
      post: {
        operationId: "createCheckoutSession",
        tags: ["billing"],
        summary: "A Stripe Checkout session priced for the caller's country (docs/product.md §7, §9)",
        security: SIGNED_IN,
        "x-max-body-bytes": api.createCheckoutSession.maxBytes,
        requestBody: jsonBody(api.createCheckoutSession.body, api.createCheckoutSession.maxBytes),
        responses: { ...ok(api.createCheckoutSession.response), ...errors(400, 401, 403, 409, 413, 415, 502, 503) },
      },
    },
    "/api/create_account": {
      post: {
        operationId: "createAccount",
        tags: ["account"],
        summary: "Set the account up after sign-in (docs/product.md §4, §7); idempotent",
        security: SIGNED_IN,
        "x-max-body-bytes": api.createAccount.maxBytes,
        requestBody: jsonBody(api.createAccount.body, api.createAccount.maxBytes),
        responses: { ...ok(api.createAccount.response), ...errors(400, 401, 403, 413, 415, 503) },
      },
    },
    "/api/customer-portal": {
      post: {
        operationId: "createCustomerPortalSession",
        tags: ["billing"],
        summary: "A Stripe Billing Portal session (docs/product.md §7)",
        security: SIGNED_IN,
        "x-max-body-bytes": api.customerPortal.maxBytes,
        requestBody: jsonBody(api.customerPortal.body, api.customerPortal.maxBytes, false),
        responses: { ...ok(api.customerPortal.response), ...errors(400, 401, 403, 404, 413, 415, 502, 503) },
      },
    },
    "/api/delete_user": {
      post: {
        operationId: "deleteUser",
        tags: ["account"],
        summary: "Delete the caller's account: cancel, crypto-shred, revoke sessions (docs/product.md §7)",
        security: SIGNED_IN,
        "x-max-body-bytes": api.deleteUser.maxBytes,
        requestBody: jsonBody(api.deleteUser.body, api.deleteUser.maxBytes, false),
        responses: {
          "200": {
            description: "Deleted; the session cookie is cleared.",
            headers: z.object({ "Set-Cookie": z.string() }),
            content: { "application/json": { schema: api.deleteUser.response } },
          },
          ...errors(400, 401, 403, 413, 415, 503),
        },
      },
    },
    "/api/get-country": {
      get: {
        operationId: "getCountry",
        tags: ["billing"],
        summary: "The caller's country for pricing (docs/product.md §7); never stored",
        security: [{}],
        responses: ok(api.getCountry.response),
      },
    },
    "/api/health": {
      get: {
        operationId: "health",
        tags: ["operations"],
        summary: "Liveness: the process answers (never cached)",
        security: [{}],
        responses: ok(api.health.response),
      },
    },
    "/api/ready": {
      get: {
        operationId: "ready",
        tags: ["operations"],
        summary: "Readiness: database, migrations, Redis (when configured), not draining",
        security: [{}],
        responses: {
          ...ok(api.ready.response),
          "503": { description: "Not ready; `checks` names the failing components.", content: { "application/json": { schema: notReadySchema } } },
        },
      },
    },
    "/api/me": {
      get: {
        operationId: "me",
        tags: ["account"],
        summary: "Who the caller is signed in as; sets no cookie",
        security: ANYONE,
        responses: { ...ok(api.me.response), ...errors(503) },
      },
    },
    "/api/openapi.json": {
      get: {
        operationId: "openApiDocument",
        tags: ["operations"],
        summary: "This document (cacheable; ETag)",
        security: [{}],
        responses: {
          "200": { description: "The OpenAPI 3.1 document.", headers: z.object({ ETag: z.string() }), content: { "application/json": { schema: z.object({}).passthrough() } } },
          "304": { description: "Not modified (If-None-Match matched the ETag)." },
        },
      },
    },
    "/api/ns/chat": {
      post: {
        operationId: "chatVisitor",
        tags: ["chat"],
        summary: "The visitor chat call (docs/product.md §7): Basic model, nothing stored, daily visitor quota",
        security: [{}],
        "x-max-body-bytes": chatMax,
        requestBody: jsonBody(chatBody, chatMax),
        responses: { ...chatResponses, ...errors(400, 403, 409, 413, 415, 422, 429, 502, 503, 504) },
      },
    },
    "/api/ns/chat_user": {
      post: {
        operationId: "chatSignedIn",
        tags: ["chat"],
        summary: "The signed-in chat call (docs/product.md §7): Pro model for Pro; stores nothing (see /api/ns/chat_save); plan's daily quota",
        security: SIGNED_IN,
        "x-max-body-bytes": chatMax,
        requestBody: jsonBody(chatBody, chatMax),
        responses: { ...chatResponses, ...errors(400, 401, 403, 404, 409, 413, 415, 422, 429, 502, 503, 504) },
      },
    },
    ...vaultPaths(),
    ...sharePaths(),
    ...projectPaths(),
    ...memoryPaths(),
    "/api/ns/chat_history": {
      get: {
        operationId: "listChats",
        tags: ["chat"],
        summary: "The caller's saved chats, newest first, a page at a time (docs/product.md §7)",
        security: SIGNED_IN,
        requestParams: { query: api.chatHistoryList.query },
        responses: { ...ok(api.chatHistoryList.response), ...errors(400, 401, 403, 503) },
      },
    },
    "/api/ns/chat_history/{chatId}": {
      get: {
        operationId: "getChat",
        tags: ["chat"],
        summary: "One saved chat with its messages (docs/product.md §7)",
        security: SIGNED_IN,
        requestParams: { path: z.object({ chatId: z.string().min(1).meta({ description: "The chat's id, a lowercase UUID (any other value: 404)" }) }) },
        responses: { ...ok(api.chatHistoryGet.response), ...errors(401, 403, 404, 503) },
      },
    },
    "/api/ns/chat_history/batch": {
      post: {
        operationId: "getChats",
        tags: ["chat"],
        summary:
          `Up to ${CHAT_BATCH_MAX_IDS} of the caller's saved chats with their messages, each as getChat returns it (docs/issues.md #9: search and export). ` +
          "Ids that are not the caller's chats are left out; chats left out for the response's size bound are listed in remaining_chat_ids, to ask for again",
        security: SIGNED_IN,
        "x-max-body-bytes": api.chatHistoryBatch.maxBytes,
        requestBody: jsonBody(api.chatHistoryBatch.body, api.chatHistoryBatch.maxBytes),
        responses: { ...ok(api.chatHistoryBatch.response), ...errors(400, 401, 403, 413, 415, 503) },
      },
    },
    "/api/ns/delete_chat": {
      delete: {
        operationId: "deleteChat",
        tags: ["chat"],
        summary: "Delete one of the caller's chats (docs/product.md §7)",
        security: SIGNED_IN,
        "x-max-body-bytes": api.deleteChat.maxBytes,
        requestBody: jsonBody(api.deleteChat.body, api.deleteChat.maxBytes),
        responses: { ...ok(api.deleteChat.response), ...errors(400, 401, 403, 404, 413, 415, 503) },
      },
    },
    "/api/ns/chat_title": {
      patch: {
        operationId: "renameChat",
        tags: ["chat"],
        summary: "Rename one of the caller's chats: the new display name sealed in the browser under the vault key (docs/issues.md #9); the chat keeps its place",
        security: SIGNED_IN,
        "x-max-body-bytes": api.chatTitle.maxBytes,
        requestBody: jsonBody(api.chatTitle.body, api.chatTitle.maxBytes),
        responses: { ...ok(api.chatTitle.response), ...errors(400, 401, 403, 404, 413, 415, 503) },
      },
    },
    "/api/stripe/webhook": {
      post: {
        operationId: "stripeWebhook",
        tags: ["billing"],
        summary: "Stripe's events, verified on the raw body (Stripe-Signature); idempotent",
        security: [{}],
        "x-max-body-bytes": WEBHOOK_MAX_BODY_BYTES,
        requestParams: { header: z.object({ "stripe-signature": z.string() }) },
        requestBody: {
          description: `A Stripe event as Stripe sends it, at most ${WEBHOOK_MAX_BODY_BYTES} bytes.`,
          required: true,
          content: { "application/json": { schema: z.object({ id: z.string(), type: z.string() }).passthrough() } },
        },
        responses: {
          ...ok(api.stripeWebhook.response, "Applied, or already applied."),
          ...errors(400, 413),
        },
      },
    },
  };
}
