import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as chatUser } from "@/app/api/ns/chat_user/route";
import { getConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { randomUUID } from "node:crypto";
import { saveSealedTurn } from "@/lib/server/db/queries";
import { closeQuota, consumeQuota, utcDay } from "@/lib/server/quota";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";

/**
 * POST /api/ns/chat_user checks session, account, origin, body, chat owner, model and quota with one
 * SQL statement (lib/server/chat/signed-in.ts, lib/server/db/chat-preconditions.ts): the answers keep the order of
 * checking one by one, a refused send is never counted, and concurrent sends at the limit admit exactly
 * the remainder. The statement follows the owners of its rules: the session store's (both deadlines; a
 * send moves the idle deadline forward) and lib/server/quota's (one counter, same key, day and limit).
 */
let t: TestDb;
let llm: FakeLlmServer;
const LIMIT = 5;

beforeAll(async () => {
  llm = await startFakeLlmServer();
  process.env.LLM_BASE_URL = `${llm.url}/v1`;
  process.env.LLM_API_KEY = "test";
  process.env.QUOTA_FREE_PER_DAY = String(LIMIT);
  t = await setupTestDb();
  resetConfigForTests();
});

afterAll(async () => {
  await t.cleanup();
  await llm.close();
  await closeQuota();
  delete process.env.LLM_BASE_URL;
  delete process.env.LLM_API_KEY;
  delete process.env.QUOTA_FREE_PER_DAY;
  resetConfigForTests();
});

function send(headers: Record<string, string>, body: unknown): Promise<Response> {
  return chatUser(
    new Request(`${getConfig().APP_URL}/api/ns/chat_user`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

const turn = (extra: Record<string, unknown> = {}) => ({
  messages: [{ role: "user", content: "hi" }],
  model: "llama3-8b-8192",
  chat_id: null,
  save_chat: false,
  ...extra,
});

/** A saved chat of `userId` (the server stores the browser's ciphertext as opaque bytes). */
async function savedChat(userId: string): Promise<string> {
  await t.db.vault.upsert({ where: { userId }, create: { userId }, update: {} });
  const chatId = randomUUID();
  const bytes = () => new Uint8Array(crypto.getRandomValues(new Uint8Array(40)));
  await saveSealedTurn({ userId, chatId, create: true, title: bytes(), firstPosition: 0, messages: [{ role: "user", content: bytes(), attachment: null }] });
  return chatId;
}

async function counted(userId: string): Promise<number> {
  const row = await t.db.quotaCounter.findUnique({ where: { subject_day: { subject: `u:${userId}`, day: utcDay() } } });
  return row?.count ?? 0;
}

describe("POST /api/ns/chat_user preconditions", () => {
  it("answers 401 before looking at the body, for a missing, unknown or expired session", async () => {
    expect((await send({}, "not json")).status).toBe(401);
    expect((await send({ cookie: "next-auth.session-token=nope" }, "not json")).status).toBe(401);
    const u = await createTestUser();
    const cookie = await sessionCookieFor(u.id);
    await t.db.session.updateMany({ where: { userId: u.id }, data: { expires: new Date(Date.now() - 1000) } });
    expect((await send({ cookie }, turn())).status).toBe(401);
  });

  it("keeps the order of the checks and counts none of the refused sends", async () => {
    const u = await createTestUser();
    const other = await createTestUser();
    const cookie = await sessionCookieFor(u.id);
    const foreign = await savedChat(other.id);
    // Cross-site beats a bad body; a bad body beats a foreign chat; a foreign chat beats a Pro model.
    expect((await send({ cookie, origin: "https://evil.example" }, "not json")).status).toBe(403);
    expect((await send({ cookie }, "not json")).status).toBe(400);
    expect((await send({ cookie }, turn({ chat_id: foreign, model: "llama3-70b-8192" }))).status).toBe(404);
    expect((await send({ cookie }, turn({ chat_id: "not-a-uuid" }))).status).toBe(404);
    expect((await send({ cookie }, turn({ model: "llama3-70b-8192" }))).status).toBe(403);
    expect((await send({ cookie }, turn({ model: "no-such-model" }))).status).toBe(400);
    expect(await counted(u.id)).toBe(0);
    const own = await savedChat(u.id);
    expect((await send({ cookie }, turn({ chat_id: own.toUpperCase() }))).status).toBe(200);
    expect(await counted(u.id)).toBe(1);
  });

  it("admits exactly the remainder of the day's quota among concurrent sends", async () => {
    const u = await createTestUser();
    const cookie = await sessionCookieFor(u.id);
    const results = await Promise.all(Array.from({ length: 12 }, () => send({ cookie }, turn())));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - LIMIT);
    expect(Number(results.find((r) => r.status === 429)!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await counted(u.id)).toBe(LIMIT);
  });

  it("moves the session's idle deadline forward, and refuses a session past its absolute end without counting", async () => {
    const u = await createTestUser();
    const cookie = await sessionCookieFor(u.id);
    const day = 86_400_000;
    // Used last six days ago (SESSION_IDLE_DAYS 7): one day left before it ends.
    const stale = new Date(Date.now() + day);
    await t.db.session.updateMany({ where: { userId: u.id }, data: { expires: stale } });
    expect((await send({ cookie }, turn())).status).toBe(200);
    const [row] = await t.db.session.findMany({ where: { userId: u.id } });
    const idleMs = getConfig().SESSION_IDLE_DAYS * day;
    expect(row!.expires.getTime()).toBeGreaterThan(Date.now() + idleMs - 60_000);

    // Idle deadline ahead, but created more than SESSION_MAX_AGE_DAYS ago: over, whatever the idle deadline says.
    const old = new Date(Date.now() - (getConfig().SESSION_MAX_AGE_DAYS * day + 60_000));
    await t.db.session.updateMany({ where: { userId: u.id }, data: { createdAt: old, expires: stale } });
    const before = await counted(u.id);
    expect((await send({ cookie }, turn())).status).toBe(401);
    expect(await counted(u.id)).toBe(before);
  });

  it("counts on lib/server/quota's counter: sends and consumeQuota share one key, day and limit", async () => {
    const u = await createTestUser();
    const cookie = await sessionCookieFor(u.id);
    expect((await send({ cookie }, turn())).status).toBe(200);
    expect((await send({ cookie }, turn())).status).toBe(200);
    const subject = { kind: "user" as const, userId: u.id, plan: "Free" as const };
    for (let i = 2; i < LIMIT - 1; i++) await consumeQuota(subject);
    expect(await counted(u.id)).toBe(LIMIT - 1);
    expect((await send({ cookie }, turn())).status).toBe(200);
    await expect(consumeQuota(subject)).rejects.toMatchObject({ code: "rate_limited:quota" });
    expect((await send({ cookie }, turn())).status).toBe(429);
    expect(await counted(u.id)).toBe(LIMIT);
  });
});
