import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as checkAccountStatus } from "@/app/api/check_account_status/route";
import { GET as checkStripeStatus } from "@/app/api/check_stripe_status/route";
import { POST as createAccount } from "@/app/api/create_account/route";
import { POST as deleteUser } from "@/app/api/delete_user/route";
import { GET as chatHistory } from "@/app/api/ns/chat_history/route";
import { GET as chatHistoryOne } from "@/app/api/ns/chat_history/[chatId]/route";
import { POST as chatHistoryBatch } from "@/app/api/ns/chat_history/batch/route";
import { POST as chatUser } from "@/app/api/ns/chat_user/route";
import { DELETE as deleteChat } from "@/app/api/ns/delete_chat/route";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { PATCH as chatTitle } from "@/app/api/ns/chat_title/route";
import { GET as vaultGet, POST as vaultCreate } from "@/app/api/vault/route";
import { DELETE as methodDelete } from "@/app/api/vault/methods/route";
import { resetConfigForTests } from "../helpers/process-state";
import { shredUserData } from "@/lib/server/db/queries";
import { generateVaultKey, importVaultKey } from "@/lib/browser/vault/crypto";
import { openChat, passphraseMethod, recoveryMethod, sealTitle, sealTurn } from "@/lib/browser/vault/seal";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sameOrigin, sessionCookieFor, signGoogleIdToken, stopTestGoogleIssuer } from "../helpers/auth";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";

/**
 * Every authenticated endpoint (docs/product.md §7) × every kind of caller: no credentials, another user (whose
 * chat is the target), a deleted account, and a desktop app's Google ID token. One table, real handlers.
 */
type Caller = "none" | "other" | "deleted" | "bearer" | "owner";
let t: TestDb;
let llm: FakeLlmServer;
let ownerChatId: string;
let ownerId: string;
let ownerKey: CryptoKey;
let ownerMethodId: string;
let sealedAppend: unknown;
let sealedTitle: string;
const auth: Record<Caller, Record<string, string>> = { none: {}, other: {}, deleted: {}, bearer: {}, owner: {} };

interface Endpoint {
  name: string;
  call: (headers: Record<string, string>) => Promise<Response>;
  expect: Record<Exclude<Caller, "owner">, number>;
}

const json = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  new Request(`http://127.0.0.1:3000${path}`, {
    method,
    headers: { ...sameOrigin(), ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const chatBody = (chat_id: string | null) => ({
  messages: [{ role: "user", content: "hello" }],
  model: "llama3-8b-8192",
  chat_id,
  save_chat: true,
});

// `other` targets the owner's chat wherever an endpoint takes a chat id: 404, never 403.
const endpoints: Endpoint[] = [
  { name: "GET /api/check_account_status", call: (h) => checkAccountStatus(json("GET", "/api/check_account_status", h)), expect: { none: 401, other: 200, deleted: 200, bearer: 200 } },
  { name: "POST /api/create_account", call: (h) => createAccount(json("POST", "/api/create_account", h, {})), expect: { none: 401, other: 200, deleted: 200, bearer: 200 } },
  { name: "GET /api/check_stripe_status", call: (h) => checkStripeStatus(json("GET", "/api/check_stripe_status", h)), expect: { none: 401, other: 200, deleted: 403, bearer: 200 } },
  { name: "GET /api/ns/chat_history", call: (h) => chatHistory(json("GET", "/api/ns/chat_history", h)), expect: { none: 401, other: 200, deleted: 403, bearer: 200 } },
  {
    name: "GET /api/ns/chat_history/{owner's chat}",
    call: (h) => chatHistoryOne(json("GET", `/api/ns/chat_history/${ownerChatId}`, h), { params: Promise.resolve({ chatId: ownerChatId }) }),
    expect: { none: 401, other: 404, deleted: 403, bearer: 404 },
  },
  // A bulk read names chats by id: another caller's answer is simply empty (see "the owner" below).
  {
    name: "POST /api/ns/chat_history/batch (owner's chat)",
    call: (h) => chatHistoryBatch(json("POST", "/api/ns/chat_history/batch", h, { chat_ids: [ownerChatId] })),
    expect: { none: 401, other: 200, deleted: 403, bearer: 200 },
  },
  { name: "POST /api/ns/chat_user (owner's chat)", call: (h) => chatUser(json("POST", "/api/ns/chat_user", h, chatBody(ownerChatId))), expect: { none: 401, other: 404, deleted: 403, bearer: 404 } },
  { name: "POST /api/ns/chat_user (new chat)", call: (h) => chatUser(json("POST", "/api/ns/chat_user", h, chatBody(null))), expect: { none: 401, other: 200, deleted: 403, bearer: 200 } },
  // Callers without a vault are refused before any chat is looked at (409), so nothing is revealed.
  { name: "POST /api/ns/chat_save (owner's chat)", call: (h) => chatSave(json("POST", "/api/ns/chat_save", h, sealedAppend)), expect: { none: 401, other: 409, deleted: 403, bearer: 409 } },
  { name: "GET /api/vault", call: (h) => vaultGet(json("GET", "/api/vault", h)), expect: { none: 401, other: 200, deleted: 403, bearer: 200 } },
  { name: "DELETE /api/vault/methods (owner's method)", call: (h) => methodDelete(json("DELETE", "/api/vault/methods", h, { id: ownerMethodId })), expect: { none: 401, other: 404, deleted: 403, bearer: 404 } },
  { name: "PATCH /api/ns/chat_title (owner's chat)", call: (h) => chatTitle(json("PATCH", "/api/ns/chat_title", h, { chat_id: ownerChatId, title_ciphertext: sealedTitle })), expect: { none: 401, other: 404, deleted: 403, bearer: 404 } },
  { name: "DELETE /api/ns/delete_chat (owner's chat)", call: (h) => deleteChat(json("DELETE", "/api/ns/delete_chat", h, { chat_id: ownerChatId })), expect: { none: 401, other: 404, deleted: 403, bearer: 404 } },
];

beforeAll(async () => {
  llm = await startFakeLlmServer();
  process.env.LLM_BASE_URL = `${llm.url}/v1`;
  process.env.LLM_API_KEY = "test";
  t = await setupTestDb();
  resetConfigForTests();
  const owner = await createTestUser();
  const other = await createTestUser();
  const deleted = await createTestUser();
  await shredUserData(deleted.id);
  auth.owner = { Cookie: await sessionCookieFor(owner.id) };
  // The owner saves a chat the way the browser does: vault, then a sealed turn.
  ownerId = owner.id;
  const raw = generateVaultKey();
  ownerKey = await importVaultKey(raw);
  const methods = [await passphraseMethod(raw, owner.id, "owner trims ivy beside the copper gate"), (await recoveryMethod(raw, owner.id)).method];
  ownerMethodId = methods[0]!.id;
  expect((await vaultCreate(json("POST", "/api/vault", auth.owner, { methods }))).status).toBe(201);
  ownerChatId = crypto.randomUUID();
  const first = await sealTurn({ key: ownerKey, userId: owner.id, chatId: ownerChatId, create: true, firstPosition: 0, messages: [{ role: "user", content: "owner's secret" }], title: "owner" });
  expect((await chatSave(json("POST", "/api/ns/chat_save", auth.owner, first))).status).toBe(200);
  sealedTitle = await sealTitle(ownerKey, owner.id, ownerChatId, "renamed by someone else");
  sealedAppend = await sealTurn({ key: ownerKey, userId: owner.id, chatId: ownerChatId, create: false, firstPosition: 1, messages: [{ role: "assistant", content: "x" }] });
  auth.other = { Cookie: await sessionCookieFor(other.id) };
  auth.deleted = { Cookie: await sessionCookieFor(deleted.id) };
  auth.bearer = { Authorization: `Bearer ${await signGoogleIdToken({ sub: "desktop-subject-1", email: "desktop@example.com" })}` };
});

afterAll(async () => {
  await t.cleanup();
  await llm.close();
  await stopTestGoogleIssuer();
  delete process.env.LLM_BASE_URL;
  delete process.env.LLM_API_KEY;
  resetConfigForTests();
});

describe.each(endpoints)("$name", (endpoint) => {
  it.each(["none", "other", "deleted", "bearer"] as const)("as %s", async (caller) => {
    const res = await endpoint.call(auth[caller]);
    expect(res.status).toBe(endpoint.expect[caller]);
    const body = await res.text();
    expect(body).not.toContain("owner's secret");
    if (res.status >= 400) expect(JSON.parse(body)).toEqual({ error: expect.any(String) });
  });
});

describe("the owner", () => {
  it("still reads the chat the others could not touch", async () => {
    const res = await chatHistoryOne(json("GET", `/api/ns/chat_history/${ownerChatId}`, auth.owner), { params: Promise.resolve({ chatId: ownerChatId }) });
    expect(res.status).toBe(200);
    const chat = await openChat(ownerKey, ownerId, await res.json());
    expect(chat.messages[0]!.content).toBe("owner's secret");
    expect(chat.title).toBe("owner");
  });

  it("gets the chat from the batch read, which gives the others nothing", async () => {
    const res = await chatHistoryBatch(json("POST", "/api/ns/chat_history/batch", auth.owner, { chat_ids: [ownerChatId] }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { chats: Parameters<typeof openChat>[2][]; remaining_chat_ids: string[] };
    expect(body.chats.map((c) => c.chat_id)).toEqual([ownerChatId]);
    expect((await openChat(ownerKey, ownerId, body.chats[0]!)).messages[0]!.content).toBe("owner's secret");
    for (const caller of ["other", "bearer"] as const) {
      const theirs = await chatHistoryBatch(json("POST", "/api/ns/chat_history/batch", auth[caller], { chat_ids: [ownerChatId] }));
      expect(await theirs.json()).toEqual({ chats: [], remaining_chat_ids: [] });
    }
  });

  it("a deleted account reads as deleted", async () => {
    const res = await checkAccountStatus(json("GET", "/api/check_account_status", auth.deleted));
    expect(await res.json()).toEqual({ account_deleted: true });
  });

  // Last: deletes the other user's account and shows its session stops working at once.
  it("after POST /api/delete_user, the same cookie is refused everywhere", async () => {
    expect((await deleteUser(json("POST", "/api/delete_user", auth.other))).status).toBe(200);
    const after = await chatHistory(json("GET", "/api/ns/chat_history", auth.other));
    expect(after.status).toBe(401);
  });
});
