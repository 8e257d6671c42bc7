import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from "zod-openapi";
import { ACCOUNT_MAX_BODY_BYTES, createAccountBodySchema, deleteUserBodySchema } from "@/lib/account/schemas";
import { ID_TOKEN_MAX_BODY_BYTES, idTokenBodySchema } from "@/lib/auth/schemas";
import {
  CHAT_BATCH_MAX_BODY_BYTES,
  CHAT_BATCH_MAX_IDS,
  chatBatchBodySchema,
  CHAT_TITLE_MAX_BODY_BYTES,
  chatHistoryQuerySchema,
  chatTitleBodySchema,
  DELETE_CHAT_MAX_BODY_BYTES,
  deleteChatBodySchema,
} from "@/lib/chat/history-schema";
import { chatRequestSchema, maxChatBodyBytes, type ChatLimits } from "@/lib/chat/schema";
import { checkoutBodySchema, customerPortalBodySchema, PAYMENT_MAX_BODY_BYTES, WEBHOOK_MAX_BODY_BYTES } from "@/lib/stripe/schemas";
import { ANYONE, errors, jsonBody, ok, SIGNED_IN } from "./helpers";
import * as r from "./responses";
import { vaultPaths } from "./vault-paths";

/**
 * The paths of the OpenAPI document, one entry per exported method of each app/api route file
 * (tests/api/openapi.test.ts checks both directions). Request schemas are the handlers' own objects.
 */

const NEXTAUTH_DESCRIPTION =
  "next-auth 4 driven through lib/auth/route.ts: `{nextauth}` is one or more path segments, e.g. " +
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
        "application/json": { schema: r.chatResultSchema },
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
    requestParams: { path: z.object({ nextauth: z.string().meta({ description: "next-auth's action, e.g. signin/email" }) }) },
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
        summary: "Start a session from a Google ID token (spec §2, /appsignup)",
        security: [{}],
        "x-max-body-bytes": ID_TOKEN_MAX_BODY_BYTES,
        requestBody: jsonBody(idTokenBodySchema, ID_TOKEN_MAX_BODY_BYTES),
        responses: {
          "200": {
            description: "Signed in: Set-Cookie carries the session.",
            headers: z.object({ "Set-Cookie": z.string() }),
            content: { "application/json": { schema: r.okAccountSchema } },
          },
          ...errors(400, 401, 403, 413, 415, 503),
        },
      },
    },
    "/api/auth/sync": {
      post: {
        operationId: "authSyncSignedIn",
        tags: ["auth"],
        summary: "Forward a bearer token to AUTH_SYNC_URL (spec §7); 30 calls a minute",
        security: SIGNED_IN,
        responses: { ...ok(r.syncSchema), ...errors(401, 403, 429, 502, 503) },
      },
      delete: {
        operationId: "authSyncSignedOut",
        tags: ["auth"],
        summary: "Forward a sign-out to AUTH_SYNC_URL (spec §7); 30 calls a minute",
        security: ANYONE,
        responses: { ...ok(r.syncSchema), ...errors(403, 429, 502, 503) },
      },
    },
    "/api/check_account_status": {
      get: {
        operationId: "checkAccountStatus",
        tags: ["account"],
        summary: "Whether the caller's account is deleted (spec §7)",
        security: SIGNED_IN,
        responses: { ...ok(r.accountStatusSchema), ...errors(401, 503) },
      },
    },
    "/api/check_stripe_status": {
      get: {
        operationId: "checkStripeStatus",
        tags: ["billing"],
        summary: "The caller's stored subscription (spec §7); no Stripe call",
        security: SIGNED_IN,
        responses: { ...ok(r.subscriptionSchema), ...errors(401, 403, 503) },
      },
    },
    "/api/create-checkout-session": {
      post: {
        operationId: "createCheckoutSession",
        tags: ["billing"],
        summary: "A Stripe Checkout session priced for the caller's country (spec §7, §9)",
        security: SIGNED_IN,
        "x-max-body-bytes": PAYMENT_MAX_BODY_BYTES,
        requestBody: jsonBody(checkoutBodySchema, PAYMENT_MAX_BODY_BYTES),
        responses: { ...ok(r.checkoutSessionSchema), ...errors(400, 401, 403, 409, 413, 415, 502, 503) },
      },
    },
    "/api/create_account": {
      post: {
        operationId: "createAccount",
        tags: ["account"],
        summary: "Set the account up after sign-in (spec §4, §7); idempotent",
        security: SIGNED_IN,
        "x-max-body-bytes": ACCOUNT_MAX_BODY_BYTES,
        requestBody: jsonBody(createAccountBodySchema, ACCOUNT_MAX_BODY_BYTES),
        responses: { ...ok(r.okAccountSchema), ...errors(400, 401, 403, 413, 415, 503) },
      },
    },
    "/api/customer-portal": {
      post: {
        operationId: "createCustomerPortalSession",
        tags: ["billing"],
        summary: "A Stripe Billing Portal session (spec §7)",
        security: SIGNED_IN,
        "x-max-body-bytes": PAYMENT_MAX_BODY_BYTES,
        requestBody: jsonBody(customerPortalBodySchema, PAYMENT_MAX_BODY_BYTES, false),
        responses: { ...ok(r.urlSchema), ...errors(400, 401, 403, 404, 413, 415, 502, 503) },
      },
    },
    "/api/delete_user": {
      post: {
        operationId: "deleteUser",
        tags: ["account"],
        summary: "Delete the caller's account: cancel, crypto-shred, revoke sessions (spec §7)",
        security: SIGNED_IN,
        "x-max-body-bytes": ACCOUNT_MAX_BODY_BYTES,
        requestBody: jsonBody(deleteUserBodySchema, ACCOUNT_MAX_BODY_BYTES, false),
        responses: {
          "200": {
            description: "Deleted; the session cookie is cleared.",
            headers: z.object({ "Set-Cookie": z.string() }),
            content: { "application/json": { schema: r.okSchema } },
          },
          ...errors(400, 401, 403, 413, 415, 503),
        },
      },
    },
    "/api/get-country": {
      get: {
        operationId: "getCountry",
        tags: ["billing"],
        summary: "The caller's country for pricing (spec §7); never stored",
        security: [{}],
        responses: ok(r.countrySchema),
      },
    },
    "/api/health": {
      get: {
        operationId: "health",
        tags: ["operations"],
        summary: "Liveness: the process answers (never cached)",
        security: [{}],
        responses: ok(r.healthSchema),
      },
    },
    "/api/ready": {
      get: {
        operationId: "ready",
        tags: ["operations"],
        summary: "Readiness: database, migrations, Redis (when configured), not draining",
        security: [{}],
        responses: {
          ...ok(r.readySchema),
          "503": { description: "Not ready; `checks` names the failing components.", content: { "application/json": { schema: r.notReadySchema } } },
        },
      },
    },
    "/api/me": {
      get: {
        operationId: "me",
        tags: ["account"],
        summary: "Who the caller is signed in as; sets no cookie",
        security: ANYONE,
        responses: { ...ok(r.meSchema), ...errors(503) },
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
        summary: "The visitor chat call (spec §7): Basic model, nothing stored, daily visitor quota",
        security: [{}],
        "x-max-body-bytes": chatMax,
        requestBody: jsonBody(chatBody, chatMax),
        responses: { ...chatResponses, ...errors(400, 403, 413, 415, 422, 429, 502, 503, 504) },
      },
    },
    "/api/ns/chat_user": {
      post: {
        operationId: "chatSignedIn",
        tags: ["chat"],
        summary: "The signed-in chat call (spec §7): Pro model for Pro; stores nothing (see /api/ns/chat_save); plan's daily quota",
        security: SIGNED_IN,
        "x-max-body-bytes": chatMax,
        requestBody: jsonBody(chatBody, chatMax),
        responses: { ...chatResponses, ...errors(400, 401, 403, 404, 413, 415, 422, 429, 502, 503, 504) },
      },
    },
    ...vaultPaths(),
    "/api/ns/chat_history": {
      get: {
        operationId: "listChats",
        tags: ["chat"],
        summary: "The caller's saved chats, newest first, a page at a time (spec §7)",
        security: SIGNED_IN,
        requestParams: { query: chatHistoryQuerySchema },
        responses: { ...ok(r.chatHistoryPageSchema), ...errors(400, 401, 403, 503) },
      },
    },
    "/api/ns/chat_history/{chatId}": {
      get: {
        operationId: "getChat",
        tags: ["chat"],
        summary: "One saved chat with its messages (spec §7)",
        security: SIGNED_IN,
        requestParams: { path: z.object({ chatId: z.string() }) },
        responses: { ...ok(r.chatSchema), ...errors(401, 403, 404, 503) },
      },
    },
    "/api/ns/chat_history/batch": {
      post: {
        operationId: "getChats",
        tags: ["chat"],
        summary:
          `Up to ${CHAT_BATCH_MAX_IDS} of the caller's saved chats with their messages, each as getChat returns it (issue 9: search and export). ` +
          "Ids that are not the caller's chats are left out; chats left out for the response's size bound are listed in remaining_chat_ids, to ask for again",
        security: SIGNED_IN,
        "x-max-body-bytes": CHAT_BATCH_MAX_BODY_BYTES,
        requestBody: jsonBody(chatBatchBodySchema, CHAT_BATCH_MAX_BODY_BYTES),
        responses: { ...ok(r.chatBatchSchema), ...errors(400, 401, 403, 413, 415, 503) },
      },
    },
    "/api/ns/delete_chat": {
      delete: {
        operationId: "deleteChat",
        tags: ["chat"],
        summary: "Delete one of the caller's chats (spec §7)",
        security: SIGNED_IN,
        "x-max-body-bytes": DELETE_CHAT_MAX_BODY_BYTES,
        requestBody: jsonBody(deleteChatBodySchema, DELETE_CHAT_MAX_BODY_BYTES),
        responses: { ...ok(r.okSchema), ...errors(400, 401, 403, 404, 413, 415, 503) },
      },
    },
    "/api/ns/chat_title": {
      patch: {
        operationId: "renameChat",
        tags: ["chat"],
        summary: "Rename one of the caller's chats: the new display name sealed in the browser under the vault key (issue 9); the chat keeps its place",
        security: SIGNED_IN,
        "x-max-body-bytes": CHAT_TITLE_MAX_BODY_BYTES,
        requestBody: jsonBody(chatTitleBodySchema, CHAT_TITLE_MAX_BODY_BYTES),
        responses: { ...ok(r.okSchema), ...errors(400, 401, 403, 404, 413, 415, 503) },
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
          ...ok(r.webhookSchema, "Applied, or already applied."),
          ...errors(400, 413),
        },
      },
    },
  };
}
