import { CHAT_TITLE_MAX_BODY_BYTES } from "@/lib/shared/chat/history-schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as chatHistory } from "@/app/api/ns/chat_history/route";
import { GET as chatHistoryOne } from "@/app/api/ns/chat_history/[chatId]/route";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { PATCH as chatTitle } from "@/app/api/ns/chat_title/route";
import { resetConfigForTests } from "../helpers/process-state";
import { openChat, openTitle, sealTitle, sealTurn, type SealedChatJson } from "@/lib/browser/vault/seal";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser } from "../helpers/auth";
import { dumpDatabase } from "../helpers/db-dump";
import { req, withVault, type Person } from "../helpers/vault-api";

/**
 * Renaming a saved chat (docs/issues.md #9 History) through the real handlers and database (PGlite, or
 * PostgreSQL when DATABASE_URL is set). The test plays the browser: it holds the vault key, seals the
 * new name with lib/browser/vault/seal.ts and opens what the history endpoints return.
 */
let t: TestDb;
let alice: Person;
let bob: Person;



/** A saved chat of `p` with one question and answer, as the browser stores it. */
async function savedChat(p: Person, question: string): Promise<string> {
  const chatId = crypto.randomUUID();
  const body = await sealTurn({
    key: p.key,
    userId: p.id,
    chatId,
    create: true,
    firstPosition: 0,
    messages: [
      { role: "user", content: question },
      { role: "assistant", content: `You asked: ${question}` },
    ],
    title: question,
  });
  expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: p.cookie, body }))).status).toBe(200);
  return chatId;
}

const rename = (p: Person, body: unknown, origin?: string) => chatTitle(req("/api/ns/chat_title", { method: "PATCH", cookie: p.cookie, body, origin }));

async function listed(p: Person) {
  const res = await chatHistory(req("/api/ns/chat_history?limit=100", { cookie: p.cookie }));
  return ((await res.json()) as { chat_history: { chat_id: string; display_name_ciphertext: string | null; last_updated: string }[] }).chat_history;
}

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser("alice-rename@example.com")).id);
  bob = await withVault((await createTestUser("bob-rename@example.com")).id);
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

describe("PATCH /api/ns/chat_title", () => {
  it("stores the sealed name: the list and the chat open to it, the chat keeps its place and last_updated", async () => {
    const older = await savedChat(alice, "First question about tides");
    const newer = await savedChat(alice, "Second question about moons");
    const before = await listed(alice);
    expect(before.map((c) => c.chat_id).slice(0, 2)).toEqual([newer, older]);

    const res = await rename(alice, { chat_id: older, title_ciphertext: await sealTitle(alice.key, alice.id, older, "Tide tables ✓") });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });

    const after = await listed(alice);
    // Not bumped to the top: the order and the timestamps are those of before.
    expect(after.map((c) => [c.chat_id, c.last_updated])).toEqual(before.map((c) => [c.chat_id, c.last_updated]));
    const entry = after.find((c) => c.chat_id === older)!;
    expect(await openTitle(alice.key, alice.id, older, entry.display_name_ciphertext)).toBe("Tide tables ✓");
    const one = await chatHistoryOne(req(`/api/ns/chat_history/${older}`, { cookie: alice.cookie }), { params: Promise.resolve({ chatId: older }) });
    const chat = await openChat(alice.key, alice.id, (await one.json()) as SealedChatJson);
    expect(chat.title).toBe("Tide tables ✓");
    expect(chat.messages.map((m) => m.content)).toEqual(["First question about tides", "You asked: First question about tides"]);
  });

  it("keeps only ciphertext: the database holds no form of the new name, and a later turn does not undo it", async () => {
    const chatId = await savedChat(alice, "Something to rename");
    const secret = `renamed-canary-${crypto.randomUUID()}`;
    expect((await rename(alice, { chat_id: chatId, title_ciphertext: await sealTitle(alice.key, alice.id, chatId, secret) })).status).toBe(200);
    const dump = await dumpDatabase(t.db);
    for (const form of [secret, Buffer.from(secret).toString("base64"), Buffer.from(secret).toString("hex")]) expect(dump).not.toContain(form);
    const row = await t.db.chat.findUniqueOrThrow({ where: { userId_id: { userId: alice.id, id: chatId } } });
    expect(row.titleCiphertext![0]).toBe(3);
    expect(Buffer.from(row.titleCiphertext!).toString("utf8")).not.toContain(secret);

    // An appended turn (create: false) sends no title, so the chosen name stays.
    const more = await sealTurn({
      key: alice.key,
      userId: alice.id,
      chatId,
      create: false,
      firstPosition: 2,
      messages: [
        { role: "user", content: "And more" },
        { role: "assistant", content: "You asked: And more" },
      ],
      title: "And more",
    });
    expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, body: more }))).status).toBe(200);
    const entry = (await listed(alice)).find((c) => c.chat_id === chatId)!;
    expect(await openTitle(alice.key, alice.id, chatId, entry.display_name_ciphertext)).toBe(secret);
  });

  it("answers 404 for another user's chat or an unknown one, and changes nothing", async () => {
    const mine = await savedChat(alice, "Alice's private chat");
    const sealedByBob = await sealTitle(bob.key, bob.id, mine, "Bob was here");
    expect((await rename(bob, { chat_id: mine, title_ciphertext: sealedByBob })).status).toBe(404);
    const unknown = crypto.randomUUID();
    expect((await rename(alice, { chat_id: unknown, title_ciphertext: await sealTitle(alice.key, alice.id, unknown, "x") })).status).toBe(404);
    const entry = (await listed(alice)).find((c) => c.chat_id === mine)!;
    expect(await openTitle(alice.key, alice.id, mine, entry.display_name_ciphertext)).toBe("Alice's private chat");
  });

  it("refuses plaintext, bad ids, extra fields, oversize bodies, other origins and visitors", async () => {
    const chatId = await savedChat(alice, "Guarded chat");
    const sealed = await sealTitle(alice.key, alice.id, chatId, "A fine name");
    const plain = Buffer.from("A fine name, in clear").toString("base64");
    expect((await rename(alice, { chat_id: chatId, title_ciphertext: plain })).status).toBe(400);
    expect((await rename(alice, { chat_id: chatId, title_ciphertext: "A fine name" })).status).toBe(400);
    expect((await rename(alice, { chat_id: chatId.toUpperCase(), title_ciphertext: sealed })).status).toBe(400);
    expect((await rename(alice, { chat_id: chatId, title_ciphertext: sealed, title: "A fine name" })).status).toBe(400);
    expect((await rename(alice, { chat_id: chatId })).status).toBe(400);
    // A name longer than the limit is refused by size (the sealed form of 1,000 characters).
    const long = await sealTitle(alice.key, alice.id, chatId, "x".repeat(1000));
    expect((await rename(alice, { chat_id: chatId, title_ciphertext: long })).status).toBe(400);
    // The body bound has room for the sealed manifest (docs/issues.md #21); one byte more is refused before parsing.
    const huge = JSON.stringify({ chat_id: chatId, title_ciphertext: "A".repeat(CHAT_TITLE_MAX_BODY_BYTES) });
    expect((await chatTitle(req("/api/ns/chat_title", { method: "PATCH", cookie: alice.cookie, raw: huge }))).status).toBe(413);
    expect((await rename(alice, { chat_id: chatId, title_ciphertext: sealed }, "https://evil.example")).status).toBe(403);
    const visitor = await chatTitle(req("/api/ns/chat_title", { method: "PATCH", body: { chat_id: chatId, title_ciphertext: sealed } }));
    expect(visitor.status).toBe(401);
    expect(await visitor.json()).toEqual({ error: expect.any(String) });
    const entry = (await listed(alice)).find((c) => c.chat_id === chatId)!;
    expect(await openTitle(alice.key, alice.id, chatId, entry.display_name_ciphertext)).toBe("Guarded chat");
  });

  it("binds the name to its chat: a sealed name moved to another chat does not open there", async () => {
    const a = await savedChat(alice, "Chat A");
    const b = await savedChat(alice, "Chat B");
    expect((await rename(alice, { chat_id: b, title_ciphertext: await sealTitle(alice.key, alice.id, a, "Meant for A") })).status).toBe(200);
    const entry = (await listed(alice)).find((c) => c.chat_id === b)!;
    await expect(openTitle(alice.key, alice.id, b, entry.display_name_ciphertext)).rejects.toThrow();
  });
});
