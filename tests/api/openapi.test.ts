import { readdirSync } from "node:fs";
import { projectBodySchema, projectChatBodySchema, projectIdBodySchema } from "@/lib/shared/projects/schemas";
import { memoryPutBodySchema } from "@/lib/shared/memory/schemas";
import { projectFileBodySchema, projectFileIdBodySchema, projectFileResealSchema } from "@/lib/shared/projects/file-schemas";
import path from "node:path";
import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import { POST as idToken } from "@/app/api/auth/id-token/route";
import { POST as createAccount } from "@/app/api/create_account/route";
import { POST as chat } from "@/app/api/ns/chat/route";
import { GET as chatHistory } from "@/app/api/ns/chat_history/route";
import { POST as chatHistoryBatch } from "@/app/api/ns/chat_history/batch/route";
import { POST as chatUser } from "@/app/api/ns/chat_user/route";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { DELETE as deleteChat } from "@/app/api/ns/delete_chat/route";
import { PATCH as chatTitle } from "@/app/api/ns/chat_title/route";
import { GET as openApiRoute } from "@/app/api/openapi.json/route";
import { PATCH as vaultPatch } from "@/app/api/vault/route";
import { POST as vaultPasskey } from "@/app/api/vault/passkey/route";
import { createAccountBodySchema, deleteUserBodySchema } from "@/lib/shared/account/schemas";
import { idTokenBodySchema } from "@/lib/shared/auth/schemas";
import { chatBatchBodySchema, chatHistoryQuerySchema, chatTitleBodySchema, deleteChatBodySchema } from "@/lib/shared/chat/history-schema";
import { chatLimits } from "@/lib/server/chat/limits";
import { chatRequestSchema } from "@/lib/shared/chat/turn-schema";
import { resetConfigForTests } from "../helpers/process-state";
import { openApiJson, openApiSource } from "@/lib/server/openapi/document";
import { shareCreateBodySchema, shareIdBodySchema } from "@/lib/shared/share/schemas";
import { checkoutBodySchema, customerPortalBodySchema } from "@/lib/shared/stripe/schemas";
import {
  chatSaveBodySchema,
  vaultAddMethodBodySchema,
  vaultCreateBodySchema,
  vaultPasskeyBodySchema,
  vaultPatchBodySchema,
  vaultRemoveMethodBodySchema,
  vaultReplaceMethodBodySchema,
  vaultUnlockBodySchema,
  vaultDeviceCreateBodySchema,
  vaultDeviceIdBodySchema,
  vaultRotationChatsBodySchema,
  vaultRotationFinishBodySchema,
  vaultRotationStartBodySchema,
} from "@/lib/shared/vault/schemas";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sameOrigin, sessionCookieFor } from "../helpers/auth";

/**
 * The OpenAPI document (GET /api/openapi.json) against the handlers (docs/issues.md #11): every route file and
 * method is documented and nothing else; the request schemas are the handlers' own objects; the
 * document is valid OpenAPI 3.1; invalid requests to real handlers answer a status and shape it lists.
 */
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
const API_DIR = path.join(import.meta.dirname, "../../app/api");

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }>; security?: unknown[] }>>;
  components: { securitySchemes: Record<string, unknown> };
};
let doc: Doc;
let t: TestDb;
let cookie: string;

/** app/api/ns/chat_history/[chatId]/route.ts → /api/ns/chat_history/{chatId}; [...x] → {x}. */
function routeFiles(dir = API_DIR): { file: string; openApiPath: string }[] {
  const out: { file: string; openApiPath: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...routeFiles(full));
    else if (entry.name === "route.ts") {
      const rel = path.relative(path.join(API_DIR, ".."), path.dirname(full)).split(path.sep);
      // Route groups `(x)` are not in the URL; `[id]`, `[...id]` and `[[...id]]` become `{id}`.
      const segments = rel.filter((s) => !/^\(.+\)$/.test(s)).map((s) => s.replace(/^\[{1,2}(?:\.\.\.)?([^\]]+)\]{1,2}$/, "{$1}"));
      out.push({ file: full, openApiPath: `/${segments.join("/")}` });
    }
  }
  return out;
}

/** What `status` an operation documents: the listed code or `default` for 500. */
function documents(pathName: string, method: string, status: number): boolean {
  const responses = doc.paths[pathName]?.[method]?.responses ?? {};
  return String(status) in responses || (status === 500 && "default" in responses);
}

function request(method: string, url: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1:3000${url}`, {
    method,
    headers: { ...sameOrigin(), "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  cookie = await sessionCookieFor((await createTestUser()).id);
  doc = JSON.parse(openApiJson().json) as Doc;
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

describe("(a) route files ⇄ document", () => {
  it("documents every exported HTTP method of every app/api route file, and nothing else", async () => {
    const fromFiles = new Set<string>();
    for (const { file, openApiPath } of routeFiles()) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const m of METHODS) if (typeof mod[m] === "function") fromFiles.add(`${m} ${openApiPath}`);
    }
    const fromDoc = new Set<string>();
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const m of Object.keys(item)) if (METHODS.includes(m.toUpperCase() as (typeof METHODS)[number])) fromDoc.add(`${m.toUpperCase()} ${p}`);
    }
    expect(fromFiles.size).toBeGreaterThanOrEqual(20);
    expect([...fromDoc].sort()).toEqual([...fromFiles].sort());
  });

  it("gives every operation an operationId, security, and an `{ error }` response for failures", () => {
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(item)) {
        expect(op.security, `${m} ${p}`).toBeDefined();
        const failure = Object.entries(op.responses).filter(([code]) => code === "default" || Number(code) >= 400);
        for (const [code, response] of failure) {
          if (p === "/api/ready" && code === "503") continue; // `{ error, checks }`, its own schema
          expect(response.content?.["application/json"]?.schema, `${m} ${p} ${code}`).toEqual({ $ref: "#/components/schemas/Error" });
        }
      }
    }
  });
});

describe("(b) the document's request schemas are the handlers' own objects", () => {
  const source = () => openApiSource().paths ?? {};
  const bodyOf = (p: string, m: string) =>
    (source()[p] as Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>)[m]?.requestBody?.content["application/json"]
      ?.schema;

  it("uses the exported lib schemas by identity, for every zod-validated body", () => {
    const expected: [string, string, z.ZodType][] = [
      ["/api/auth/id-token", "post", idTokenBodySchema],
      ["/api/create_account", "post", createAccountBodySchema],
      ["/api/delete_user", "post", deleteUserBodySchema],
      ["/api/create-checkout-session", "post", checkoutBodySchema],
      ["/api/customer-portal", "post", customerPortalBodySchema],
      ["/api/ns/delete_chat", "delete", deleteChatBodySchema],
      ["/api/ns/chat_title", "patch", chatTitleBodySchema],
      ["/api/ns/chat_history/batch", "post", chatBatchBodySchema],
      ["/api/ns/chat", "post", chatRequestSchema(chatLimits())],
      ["/api/ns/chat_user", "post", chatRequestSchema(chatLimits())],
      ["/api/ns/chat_save", "post", chatSaveBodySchema],
      ["/api/vault", "post", vaultCreateBodySchema],
      ["/api/vault", "patch", vaultPatchBodySchema],
      ["/api/vault/methods", "post", vaultAddMethodBodySchema],
      ["/api/vault/methods", "patch", vaultReplaceMethodBodySchema],
      ["/api/vault/methods", "delete", vaultRemoveMethodBodySchema],
      ["/api/vault/passkey", "post", vaultPasskeyBodySchema],
      ["/api/vault/unlock", "post", vaultUnlockBodySchema],
      ["/api/vault/devices", "post", vaultDeviceCreateBodySchema],
      ["/api/vault/devices", "delete", vaultDeviceIdBodySchema],
      ["/api/vault/devices/unlock", "post", vaultDeviceIdBodySchema],
      ["/api/shares", "post", shareCreateBodySchema],
      ["/api/shares", "delete", shareIdBodySchema],
      ["/api/vault/rotation", "post", vaultRotationStartBodySchema],
      ["/api/vault/rotation/chats", "post", vaultRotationChatsBodySchema],
      ["/api/vault/rotation/finish", "post", vaultRotationFinishBodySchema],
      ["/api/projects", "post", projectBodySchema],
      ["/api/projects", "patch", projectBodySchema],
      ["/api/projects", "delete", projectIdBodySchema],
      ["/api/projects/chat", "patch", projectChatBodySchema],
      ["/api/memory", "post", memoryPutBodySchema],
      ["/api/projects/files", "post", projectFileBodySchema],
      ["/api/projects/files", "patch", projectFileResealSchema],
      ["/api/projects/files", "delete", projectFileIdBodySchema],
    ];
    for (const [p, m, schema] of expected) expect(bodyOf(p, m), `${m} ${p}`).toBe(schema);
    // Every other documented body is one no handler validates with zod (the webhook's raw, signed body).
    const withBody = Object.entries(source()).flatMap(([p, item]) =>
      Object.keys(item ?? {}).filter((m) => bodyOf(p, m) !== undefined).map((m) => `${m} ${p}`),
    );
    expect(withBody.sort()).toEqual([...expected.map(([p, m]) => `${m} ${p}`), "post /api/stripe/webhook"].sort());
    const history = (source()["/api/ns/chat_history"] as { get: { requestParams: { query: unknown } } }).get;
    expect(history.requestParams.query).toBe(chatHistoryQuerySchema);
  });

  it("the chat schema follows the configured limits, and the document with it", () => {
    process.env.CHAT_MAX_MESSAGES = "7";
    resetConfigForTests();
    try {
      const d = JSON.parse(openApiJson().json) as { paths: Record<string, { post: { requestBody: { content: { "application/json": { schema: { properties: { messages: { maxItems: number } } } } } } } }> };
      expect(d.paths["/api/ns/chat"]!.post.requestBody.content["application/json"].schema.properties.messages.maxItems).toBe(7);
      expect(bodyOf("/api/ns/chat", "post")).toBe(chatRequestSchema(chatLimits()));
    } finally {
      delete process.env.CHAT_MAX_MESSAGES;
      resetConfigForTests();
    }
  });
});

describe("(c) the document itself", () => {
  it("is valid OpenAPI 3.1 (@readme/openapi-parser)", async () => {
    const result = await validate(JSON.parse(openApiJson().json));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["googleIdToken", "sessionCookie"]);
  });

  it("is served at GET /api/openapi.json: cacheable, ETag/304, and no secrets", async () => {
    const secrets = { NEXTAUTH_SECRET: "s".repeat(40) + "-secret-marker", LLM_API_KEY: "llm-key-secret-marker", STRIPE_SECRET_KEY: "sk_test_secret_marker" };
    Object.assign(process.env, secrets);
    resetConfigForTests();
    try {
      const res = await openApiRoute(new Request("http://127.0.0.1:3000/api/openapi.json"));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      const text = await res.text();
      for (const value of Object.values(secrets)) expect(text).not.toContain(value);
      expect(text).not.toContain("secret_marker");
      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await openApiRoute(new Request("http://127.0.0.1:3000/api/openapi.json", { headers: { "If-None-Match": etag } }));
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
    } finally {
      for (const key of Object.keys(secrets)) delete process.env[key];
      resetConfigForTests();
    }
  });
});

describe("(d) invalid requests to the real handlers answer what the document lists", () => {
  const cases: { name: string; path: string; method: string; schema: () => z.ZodType; call: () => Promise<Response>; status: number }[] = [
    { name: "chat: no user message", path: "/api/ns/chat", method: "post", schema: () => chatRequestSchema(chatLimits()), status: 400,
      call: () => chat(request("POST", "/api/ns/chat", { messages: [], model: "x" })) },
    { name: "chat_user: a wrong role", path: "/api/ns/chat_user", method: "post", schema: () => chatRequestSchema(chatLimits()), status: 400,
      call: () => chatUser(request("POST", "/api/ns/chat_user", { messages: [{ role: "robot", content: "hi" }], model: "x" }, { Cookie: cookie })) },
    { name: "id-token: an extra field", path: "/api/auth/id-token", method: "post", schema: () => idTokenBodySchema, status: 400,
      call: () => idToken(request("POST", "/api/auth/id-token", { idToken: "x", extra: 1 })) },
    { name: "create_account: a non-empty object", path: "/api/create_account", method: "post", schema: () => createAccountBodySchema, status: 400,
      call: () => createAccount(request("POST", "/api/create_account", { plan: 1 }, { Cookie: cookie })) },
    { name: "delete_chat: no chat_id", path: "/api/ns/delete_chat", method: "delete", schema: () => deleteChatBodySchema, status: 400,
      call: () => deleteChat(request("DELETE", "/api/ns/delete_chat", {}, { Cookie: cookie })) },
    { name: "chat_title: plaintext, not a vault ciphertext", path: "/api/ns/chat_title", method: "patch", schema: () => chatTitleBodySchema, status: 400,
      call: () => chatTitle(request("PATCH", "/api/ns/chat_title", { chat_id: "0b9d3c52-3f4e-4d6a-8d5e-7c1f2a3b4c5d", title_ciphertext: "SGVsbG8gd29ybGQ=" }, { Cookie: cookie })) },
    { name: "chat_save: not a UUID", path: "/api/ns/chat_save", method: "post", schema: () => chatSaveBodySchema, status: 400,
      call: () => chatSave(request("POST", "/api/ns/chat_save", { chat_id: "nope", create: true, first_position: 0, messages: [] }, { Cookie: cookie })) },
    { name: "vault PATCH: history_on not a boolean", path: "/api/vault", method: "patch", schema: () => vaultPatchBodySchema, status: 400,
      call: () => vaultPatch(request("PATCH", "/api/vault", { history_on: "yes" }, { Cookie: cookie })) },
    { name: "vault passkey: an unknown purpose", path: "/api/vault/passkey", method: "post", schema: () => vaultPasskeyBodySchema, status: 400,
      call: () => vaultPasskey(request("POST", "/api/vault/passkey", { purpose: "steal" }, { Cookie: cookie })) },
    { name: "chat_history/batch: 101 ids", path: "/api/ns/chat_history/batch", method: "post", schema: () => chatBatchBodySchema, status: 400,
      call: () => chatHistoryBatch(request("POST", "/api/ns/chat_history/batch", { chat_ids: Array.from({ length: 101 }, () => crypto.randomUUID()) }, { Cookie: cookie })) },
    { name: "chat_history: limit=0", path: "/api/ns/chat_history", method: "get", schema: () => chatHistoryQuerySchema, status: 400,
      call: () => chatHistory(new Request("http://127.0.0.1:3000/api/ns/chat_history?limit=0", { headers: { Cookie: cookie } })) },
  ];

  it.each(cases)("$name → $status `{ error }`, validated by the documented schema", async ({ path: p, method, schema, call, status }) => {
    const spy = vi.spyOn(schema(), "safeParse");
    try {
      const res = await call();
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error: expect.stringMatching(/^Invalid request: /) });
      expect(documents(p, method, res.status)).toBe(true);
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it("chat: 415 for a non-JSON body and 413 past the documented byte limit", async () => {
    const notJson = await chat(request("POST", "/api/ns/chat", "hello", { "Content-Type": "text/plain" }));
    expect(notJson.status).toBe(415);
    expect(await notJson.json()).toEqual({ error: expect.any(String) });
    expect(documents("/api/ns/chat", "post", 415)).toBe(true);

    process.env.PDF_MAX_BYTES = "1024";
    process.env.CHAT_MAX_REQUEST_BYTES = "1024";
    resetConfigForTests();
    try {
      const limit = (JSON.parse(openApiJson().json) as { paths: Record<string, { post: Record<string, number> }> }).paths["/api/ns/chat"]!.post["x-max-body-bytes"]!;
      const big = await chat(request("POST", "/api/ns/chat", { messages: [{ role: "user", content: "x".repeat(limit) }], model: "x" }));
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual({ error: expect.any(String) });
      expect(documents("/api/ns/chat", "post", 413)).toBe(true);
    } finally {
      delete process.env.PDF_MAX_BYTES;
      delete process.env.CHAT_MAX_REQUEST_BYTES;
      resetConfigForTests();
    }
  });

  it("chat past the daily quota: 429 `{ error }` with Retry-After, both documented", async () => {
    process.env.QUOTA_VISITOR_PER_DAY = "1";
    resetConfigForTests();
    try {
      const send = () => chat(request("POST", "/api/ns/chat", { messages: [{ role: "user", content: "hi" }], model: "llama3-8b-8192" }));
      const first = await send();
      await first.text();
      const res = first.status === 429 ? first : await send();
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual({ error: expect.any(String) });
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(documents("/api/ns/chat", "post", 429)).toBe(true);
      const documented = (doc.paths["/api/ns/chat"]!.post!.responses["429"] as { headers?: Record<string, { required?: boolean }> }).headers;
      expect(documented?.["Retry-After"]?.required).toBe(true);
    } finally {
      delete process.env.QUOTA_VISITOR_PER_DAY;
      resetConfigForTests();
    }
  });

  it("a signed-in endpoint without credentials: 401 `{ error }`, documented", async () => {
    const res = await chatUser(request("POST", "/api/ns/chat_user", { messages: [{ role: "user", content: "hi" }], model: "x" }));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.any(String) });
    expect(documents("/api/ns/chat_user", "post", 401)).toBe(true);
    expect(doc.paths["/api/ns/chat_user"]!.post!.security).toEqual([{ sessionCookie: [] }, { googleIdToken: [] }]);
  });

  it("passkey options to unlock an account without a passkey: 404 `{ error }`, documented (docs/issues.md #43)", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const res = await vaultPasskey(request("POST", "/api/vault/passkey", { purpose: "unlock" }, { Cookie: cookie }));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "No passkey is set up for this account." });
    expect(documents("/api/vault/passkey", "post", 404)).toBe(true);
  });
});
