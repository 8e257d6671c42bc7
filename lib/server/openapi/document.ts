import "server-only";
import { createHash } from "node:crypto";
import { createDocument, type ZodOpenApiObject } from "zod-openapi";
import { sessionCookieName } from "@/lib/server/auth/cookies";
import { chatLimits } from "@/lib/server/chat/limits";
import { getConfig } from "@/lib/server/config";
import pkg from "@/package.json";
import { apiPaths } from "./paths";

// The OpenAPI 3.1 document, from the contract's zod objects (docs/api.md). Limits come from the config, so it says
// what this deployment enforces; nothing secret is read.

/** Its schemas are the handlers' zod objects (tests compare them by identity). */
export function openApiSource(): ZodOpenApiObject {
  const config = getConfig();
  const limits = chatLimits();
  return {
    openapi: "3.1.0",
    info: {
      title: "Hush API",
      version: pkg.version,
      description: [
        "Private, encrypted AI chat. Every failure answers `{ \"error\": string }` with the status listed per operation.",
        "Authentication: the session cookie set by sign-in (browser), or `Authorization: Bearer <Google ID token>` (desktop app; lib/server/auth/README.md).",
        "State-changing calls authenticated by cookie must come from the same origin (403 otherwise); bearer calls are exempt.",
        `Daily quotas (UTC day; 429 with Retry-After until the next day): visitors ${config.QUOTA_VISITOR_PER_DAY}, Free ${config.QUOTA_FREE_PER_DAY}, Pro ${config.QUOTA_PRO_PER_DAY} sends.`,
        `Chat requests: at most ${limits.maxMessages} messages of ${limits.maxMessageChars} characters, ${limits.maxDocuments} documents of ${limits.maxDocumentChars} characters (a PDF comes as \`document\`, its text read in the browser, or for a standard model as the spec's \`file\`, read by the server: see the chat operations).`,
        "503 answers while the database is unreachable or the instance is shutting down carry Retry-After.",
        "Any path: a method a route does not export answers 405, and a malformed request target or percent-encoding 400 (lib/server/request-guard.ts).",
      ].join("\n\n"),
    },
    servers: [{ url: "/", description: "This deployment" }],
    components: {
      securitySchemes: {
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: sessionCookieName(),
          description: "The database session started by sign-in (e-mail link, Google, or POST /api/auth/id-token). HttpOnly; revocable.",
        },
        googleIdToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "A Google ID token (RS256, verified against the issuer's keys): the desktop app's credential. Every refusal is 401.",
        },
      },
    },
    tags: [
      { name: "chat", description: "The chat calls and saved history (docs/product.md §7)" },
      { name: "account", description: "Sign-in state and the account (docs/product.md §4, §7)" },
      { name: "billing", description: "Stripe checkout, portal and webhook (docs/product.md §9)" },
      { name: "auth", description: "Sign-in (next-auth and the desktop app)" },
      { name: "vault", description: "Zero-access saved history: keys wrapped in the browser (docs/issues.md #8)" },
      { name: "projects", description: "Projects with custom instructions, sealed in the browser (docs/issues.md #23)" },
      { name: "memory", description: "Memories, sealed in the browser (docs/issues.md #41)" },
      { name: "operations", description: "Health, readiness and this document" },
    ],
    paths: apiPaths(limits),
  };
}

let cached: { key: string; json: string; etag: string } | undefined;

/** Built once per configuration; `etag` is a strong validator in quotes. */
export function openApiJson(): { json: string; etag: string } {
  const c = getConfig();
  const key = JSON.stringify([chatLimits(), sessionCookieName(), c.QUOTA_VISITOR_PER_DAY, c.QUOTA_FREE_PER_DAY, c.QUOTA_PRO_PER_DAY]);
  if (cached?.key !== key) {
    const json = JSON.stringify(createDocument(openApiSource()));
    cached = { key, json, etag: `"${createHash("sha256").update(json).digest("base64url").slice(0, 32)}"` };
  }
  return cached;
}
