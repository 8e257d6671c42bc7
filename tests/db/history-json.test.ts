import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as chatHistory } from "@/app/api/ns/chat_history/route";
import { GET as chatHistoryOne } from "@/app/api/ns/chat_history/[chatId]/route";
import { getConfig } from "@/lib/server/config";
import { createSession, hashSessionToken } from "@/lib/server/db/sessions";
import { sessionCookieName } from "@/lib/server/auth/cookies";
import { historyChat, historyPage } from "@/lib/server/chat/history";
import { chatJsonForSession, historyPageJsonForSession } from "@/lib/server/db/history-json";
import { saveSealedTurn } from "@/lib/server/db/queries";
import { setupTestDb, type TestDb } from "./setup-db";
import { createTestUser } from "../helpers/auth";

/**
 * The history reads whose JSON PostgreSQL builds (docs/issues.md #12, lib/server/db/history-json.ts) against the shapes
 * lib/server/chat/history.ts builds in Node for bearer callers (historyChat, historyPage): the same text once
 * whitespace is normalised, so the same keys in the same order, base64 and instants alike. Runs on
 * PGlite and, with DATABASE_URL, on PostgreSQL (whose test databases use an unusual time zone).
 */
let t: TestDb;
let alice: { id: string; token: string };
let bob: { id: string; token: string };
const chats: Record<"full" | "bare" | "third", string> = { full: "", bare: "", third: "" };
const bytes = (n: number) => new Uint8Array(randomBytes(n));
/** Whitespace and key order as JSON.stringify writes them. */
const normal = (json: string | null) => JSON.stringify(JSON.parse(json!));

async function person() {
  const user = await createTestUser();
  await t.db.vault.create({ data: { userId: user.id } });
  return { id: user.id, token: (await createSession(user.id)).token };
}

const cookie = (token: string) => `${sessionCookieName()}=${token}`;
const get = (path: string, token: string) => new Request(`${new URL(getConfig().APP_URL).origin}${path}`, { headers: { Cookie: cookie(token) } });

beforeAll(async () => {
  t = await setupTestDb();
  alice = await person();
  bob = await person();
  const save = async (input: Omit<Parameters<typeof saveSealedTurn>[0], "userId" | "chatId" | "create" | "firstPosition">) => {
    const chatId = crypto.randomUUID();
    await saveSealedTurn({ userId: alice.id, chatId, create: true, firstPosition: 0, ...input });
    return chatId;
  };
  // Ciphertext longer than 57 bytes: PostgreSQL's base64 would wrap it at 76 characters.
  chats.full = await save({
    title: bytes(90),
    tree: bytes(300),
    messages: [
      { role: "user", content: bytes(200), attachment: bytes(1000) },
      { role: "assistant", content: bytes(500), attachment: null },
      { role: "user", content: bytes(1), attachment: null },
    ],
    createdAt: new Date("2021-03-04T05:06:07.008Z"),
    lastUpdated: new Date("2021-03-04T05:06:07.890Z"),
  });
  chats.bare = await save({ title: null, messages: [{ role: "user", content: bytes(40), attachment: null }] });
  chats.third = await save({ title: bytes(30), messages: [{ role: "user", content: bytes(40), attachment: null }], createdAt: new Date("2020-01-01T00:00:00.000Z"), lastUpdated: new Date("2020-01-01T00:00:00.000Z") });
});

afterAll(async () => {
  await t.cleanup();
});

describe("stored times (docs/issues.md #22, metadata)", () => {
  it("a chat's and its messages' creation times are kept to the minute; last_updated stays exact", async () => {
    const carol = await person();
    const chatId = crypto.randomUUID();
    const now = new Date();
    await saveSealedTurn({ userId: carol.id, chatId, create: true, firstPosition: 0, title: null, messages: [{ role: "user", content: bytes(40), attachment: null }] });
    await saveSealedTurn({ userId: carol.id, chatId, create: false, firstPosition: 1, title: null, messages: [{ role: "assistant", content: bytes(40), attachment: null }] });
    const chat = await t.db.chat.findUniqueOrThrow({ where: { userId_id: { userId: carol.id, id: chatId } }, include: { messages: true } });
    for (const at of [chat.createdAt, ...chat.messages.map((m) => m.createdAt)]) expect(at.getTime() % 60_000).toBe(0);
    expect(chat.messages).toHaveLength(2);
    expect(chat.lastUpdated.getTime()).toBeGreaterThanOrEqual(now.getTime());
  });
});

describe("history JSON built by the database (docs/issues.md #12)", () => {
  it("a chat with a branch tree, attachments and import dates, and one with neither title nor tree, read as historyChat shapes them", async () => {
    for (const chatId of [chats.full, chats.bare]) {
      const read = await chatJsonForSession({ sessionTokenHash: hashSessionToken(alice.token), now: new Date(), chatId });
      expect(read.session?.user.id).toBe(alice.id);
      expect(read.json).not.toContain("\\n");
      expect(normal(read.json)).toBe(JSON.stringify(await historyChat(alice.id, chatId)));
      // An upper-case id names the same chat (the old path lower-cased it too).
      const upper = await chatJsonForSession({ sessionTokenHash: hashSessionToken(alice.token), now: new Date(), chatId: chatId.toUpperCase() });
      expect(upper.json).toBe(read.json);
    }
    const full = JSON.parse((await chatJsonForSession({ sessionTokenHash: hashSessionToken(alice.token), now: new Date(), chatId: chats.full })).json!);
    expect(full.tree_ciphertext).toEqual(expect.any(String));
    // Creation times are stored to the minute (docs/issues.md #22, "Metadata"); last_updated stays exact.
    expect(full.created_at).toBe("2021-03-04T05:06:00.000Z");
    expect(full.last_updated).toBe("2021-03-04T05:06:07.890Z");
    expect(full.messages.map((m: { position: number; attachment_ciphertext: string | null }) => [m.position, m.attachment_ciphertext !== null])).toEqual([
      [0, true],
      [1, false],
      [2, false],
    ]);
  });

  it("another user's chat, an unknown id or no UUID: the session but no chat; an unknown or expired session: nothing", async () => {
    const bobs = { sessionTokenHash: hashSessionToken(bob.token), now: new Date() };
    for (const chatId of [chats.full, crypto.randomUUID(), "not-a-uuid"]) {
      const read = await chatJsonForSession({ ...bobs, chatId });
      expect(read.session?.user.id).toBe(bob.id);
      expect(read.json).toBeNull();
    }
    expect(await chatJsonForSession({ sessionTokenHash: hashSessionToken("unknown"), now: new Date(), chatId: chats.full })).toEqual({ session: null, json: null });
    const later = new Date(Date.now() + 40 * 86_400_000);
    expect(await chatJsonForSession({ sessionTokenHash: hashSessionToken(alice.token), now: later, chatId: chats.full })).toEqual({ session: null, json: null });
    expect(await historyPageJsonForSession({ sessionTokenHash: hashSessionToken(alice.token), now: later, limit: 50 })).toEqual({ session: null, json: null });
  });

  it("pages as historyPage does: same entries, same cursor, the last page without one", async () => {
    const hash = hashSessionToken(alice.token);
    const first = await historyPageJsonForSession({ sessionTokenHash: hash, now: new Date(), limit: 2 });
    expect(first.session?.user.id).toBe(alice.id);
    const expected = await historyPage(alice.id, 2, null);
    expect(normal(first.json)).toBe(JSON.stringify(expected));
    expect(expected.next_cursor).not.toBeNull();
    const second = await historyPageJsonForSession({ sessionTokenHash: hash, now: new Date(), limit: 2, cursor: expected.next_cursor });
    const expectedSecond = await historyPage(alice.id, 2, expected.next_cursor);
    expect(normal(second.json)).toBe(JSON.stringify(expectedSecond));
    expect(expectedSecond.chat_history.map((c) => c.chat_id)).toEqual([chats.third]);
    expect(expectedSecond.next_cursor).toBeNull();
    const all = await historyPageJsonForSession({ sessionTokenHash: hash, now: new Date(), limit: 3 });
    expect(normal(all.json)).toBe(JSON.stringify(await historyPage(alice.id, 3, null)));
    expect(JSON.parse(all.json!).next_cursor).toBeNull();
    const none = await historyPageJsonForSession({ sessionTokenHash: hashSessionToken(bob.token), now: new Date(), limit: 50 });
    expect(JSON.parse(none.json!)).toEqual({ chat_history: [], next_cursor: null });
    await expect(historyPageJsonForSession({ sessionTokenHash: hash, now: new Date(), limit: 2, cursor: "bogus" })).rejects.toMatchObject({ code: "bad_request:cursor" });
    await expect(historyPageJsonForSession({ sessionTokenHash: hash, now: new Date(), limit: 0 })).rejects.toMatchObject({ code: "bad_request:input" });
  });

  it("the routes send that JSON as application/json; 404 for another user's chat, 401 for an expired session", async () => {
    const one = await chatHistoryOne(get(`/api/ns/chat_history/${chats.full}`, alice.token), { params: Promise.resolve({ chatId: chats.full }) });
    expect(one.status).toBe(200);
    expect(one.headers.get("content-type")).toBe("application/json");
    expect(one.headers.get("cache-control")).toBe("private, no-store");
    expect(await one.json()).toEqual(await historyChat(alice.id, chats.full));
    const page = await chatHistory(get("/api/ns/chat_history?limit=2", alice.token));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("application/json");
    expect(await page.json()).toEqual(await historyPage(alice.id, 2, null));
    const others = await chatHistoryOne(get(`/api/ns/chat_history/${chats.full}`, bob.token), { params: Promise.resolve({ chatId: chats.full }) });
    expect(others.status).toBe(404);
    expect(await others.text()).not.toContain(chats.full);
    const expiring = await person();
    await t.db.session.updateMany({ where: { userId: expiring.id }, data: { expires: new Date(Date.now() - 1000) } });
    expect((await chatHistory(get("/api/ns/chat_history?limit=2", expiring.token))).status).toBe(401);
    expect((await chatHistoryOne(get(`/api/ns/chat_history/${chats.full}`, expiring.token), { params: Promise.resolve({ chatId: chats.full }) })).status).toBe(401);
  });
});
