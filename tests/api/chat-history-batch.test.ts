import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as chatHistoryOne } from "@/app/api/ns/chat_history/[chatId]/route";
import { POST as chatHistoryBatch } from "@/app/api/ns/chat_history/batch/route";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { addSibling, fromMessages } from "@/lib/browser/chat/branches";
import { CHAT_BATCH_MAX_BYTES, CHAT_BATCH_MAX_IDS } from "@/lib/shared/chat/history-schema";
import { storedPath, treeForSaving, type SavedMessage } from "@/lib/browser/chat/saved-tree";
import { resetConfigForTests } from "../helpers/process-state";
import { openChat, sealTurn, type PlainMessage, type SealedChatJson } from "@/lib/browser/vault/seal";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser } from "../helpers/auth";
import { req, withVault, type Person } from "../helpers/vault-api";

/**
 * POST /api/ns/chat_history/batch (docs/issues.md #9: search and export read many chats per request) through the
 * real handlers and database (PGlite, or PostgreSQL when DATABASE_URL is set). The test plays the
 * browser: it seals chats under the vault key and opens what the batch returns.
 */
let t: TestDb;
let alice: Person;
let bob: Person;


const batch = (p: Person | null, body: unknown, extra: { origin?: string; raw?: string; type?: string } = {}) =>
  chatHistoryBatch(req("/api/ns/chat_history/batch", { method: "POST", cookie: p?.cookie, body: extra.raw === undefined ? body : undefined, ...extra }));


/** A saved chat of `p`, sealed as the browser does; `tree` for one with versions. */
async function savedChat(p: Person, messages: PlainMessage[], title: string, tree?: string | null): Promise<string> {
  const chatId = crypto.randomUUID();
  const body = await sealTurn({ key: p.key, userId: p.id, chatId, create: true, firstPosition: 0, messages, title, tree });
  expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: p.cookie, body }))).status).toBe(200);
  return chatId;
}

const qa = (question: string): PlainMessage[] => [
  { role: "user", content: question },
  { role: "assistant", content: `You asked: ${question}` },
];

async function readOne(p: Person, chatId: string): Promise<unknown> {
  const res = await chatHistoryOne(req(`/api/ns/chat_history/${chatId}`, { cookie: p.cookie }), { params: Promise.resolve({ chatId }) });
  expect(res.status).toBe(200);
  return res.json();
}

type BatchJson = { chats: SealedChatJson[]; remaining_chat_ids: string[] };

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser("alice-batch@example.com")).id);
  bob = await withVault((await createTestUser("bob-batch@example.com")).id);
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

describe("POST /api/ns/chat_history/batch", () => {
  it("returns the caller's chats in the order asked, each exactly as GET /chat_history/{id}, and leaves out others' and unknown ids", async () => {
    const canary = `batch-canary-${crypto.randomUUID()}`;
    const a1 = await savedChat(alice, qa(`Tides ${canary}`), `Title ${canary}`);
    const a2 = await savedChat(alice, qa("Moons"), "Moons");
    // A chat with versions: its sealed branch tree comes along.
    let tree = fromMessages<SavedMessage>(qa("Kiwis"));
    tree = addSibling(tree, "m2", { role: "assistant", content: "Another answer about kiwis" }).tree;
    const path = storedPath(tree).map((n) => ({ role: n.message.role, content: n.message.content }));
    const a3 = await savedChat(alice, path, "Kiwis", treeForSaving(tree));
    const b1 = await savedChat(bob, qa(`Bob's secret ${canary}`), "Bob");

    const res = await batch(alice, { chat_ids: [a3, b1, crypto.randomUUID(), a1.toUpperCase(), a2, a1] });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const text = await res.text();
    // Ciphertext only: no form of what was written is in the response.
    for (const form of [canary, Buffer.from(canary).toString("base64"), "Tides", "Bob's secret", "Kiwis"]) expect(text).not.toContain(form);
    const body = JSON.parse(text) as BatchJson;
    expect(body.remaining_chat_ids).toEqual([]);
    expect(body.chats.map((c) => c.chat_id)).toEqual([a3, a1, a2]);
    for (const chat of body.chats) expect(chat).toEqual(await readOne(alice, chat.chat_id));
    expect(body.chats[0]!.tree_ciphertext).toEqual(expect.any(String));
    expect(body.chats[1]!.tree_ciphertext).toBeNull();

    const opened = await Promise.all(body.chats.map((c) => openChat(alice.key, alice.id, c)));
    expect(opened.map((c) => c.title)).toEqual(["Kiwis", `Title ${canary}`, "Moons"]);
    expect(opened[1]!.messages.map((m) => m.content)).toEqual([`Tides ${canary}`, `You asked: Tides ${canary}`]);
    expect(opened[0]!.messages.map((m) => m.content)).toEqual(["Kiwis", "Another answer about kiwis"]);
    expect(opened[0]!.tree).not.toBeNull();

    // Only someone else's ids: an empty answer, nothing revealed.
    const others = await batch(bob, { chat_ids: [a1, a2] });
    expect(others.status).toBe(200);
    expect(await others.json()).toEqual({ chats: [], remaining_chat_ids: [] });
  });

  it("stops at its size bound and lists the chats left out, which a second request returns", async () => {
    // 1 MiB of ciphertext each (0.95 MB of text padded to its 1 MiB bucket, docs/issues.md #22): three fit in
    // 4 MiB, four do not.
    const big = (n: number) => savedChat(alice, [{ role: "user", content: `${n} ${"x".repeat(950_000)}` }], `Big ${n}`);
    const ids = [await big(1), await big(2), await big(3), await big(4)];
    const small = await savedChat(alice, qa("Small"), "Small");
    expect(CHAT_BATCH_MAX_BYTES).toBe(4 * 1024 * 1024);

    const first = (await (await batch(alice, { chat_ids: [...ids, small] })).json()) as BatchJson;
    expect(first.chats.map((c) => c.chat_id)).toEqual(ids.slice(0, 3));
    // Everything after the first chat that did not fit waits, so the order asked is kept.
    expect(first.remaining_chat_ids).toEqual([ids[3], small]);
    const second = (await (await batch(alice, { chat_ids: first.remaining_chat_ids })).json()) as BatchJson;
    expect(second.chats.map((c) => c.chat_id)).toEqual([ids[3], small]);
    expect(second.remaining_chat_ids).toEqual([]);
    expect((await openChat(alice.key, alice.id, second.chats[0]!)).messages[0]!.content.startsWith("4 xxx")).toBe(true);

    // A chat larger than the bound on its own still comes, alone.
    const huge = await savedChat(alice, [1, 2, 3, 4, 5].map((n) => ({ role: "user" as const, content: `${n} ${"y".repeat(950_000)}` })), "Huge");
    const alone = (await (await batch(alice, { chat_ids: [huge, small] })).json()) as BatchJson;
    expect(alone.chats.map((c) => c.chat_id)).toEqual([huge]);
    expect(alone.remaining_chat_ids).toEqual([small]);
  });

  it("401 for a visitor, 403 from another origin", async () => {
    const chatId = await savedChat(alice, qa("Visitors cannot read this"), "Private");
    const visitor = await batch(null, { chat_ids: [chatId] });
    expect(visitor.status).toBe(401);
    expect(await visitor.json()).toEqual({ error: expect.any(String) });
    const foreign = await batch(alice, { chat_ids: [chatId] }, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ error: expect.any(String) });
  });

  it.each([
    ["no ids", { chat_ids: [] }],
    [`more than ${CHAT_BATCH_MAX_IDS} ids`, { chat_ids: Array.from({ length: CHAT_BATCH_MAX_IDS + 1 }, () => crypto.randomUUID()) }],
    ["an id that is not a UUID", { chat_ids: ["not-a-chat"] }],
    ["ids not in an array", { chat_ids: "0b9d3c52-3f4e-4d6a-8d5e-7c1f2a3b4c5d" }],
    ["an unknown field", { chat_ids: [crypto.randomUUID()], include: "everything" }],
  ])("400 for %s", async (_, body) => {
    const res = await batch(alice, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^Invalid request: /) });
  });

  it("400 for malformed JSON, 415 for another type, 413 past the body limit", async () => {
    expect((await batch(alice, undefined, { raw: "{" })).status).toBe(400);
    expect((await batch(alice, undefined, { raw: "chat_ids=1", type: "application/x-www-form-urlencoded" })).status).toBe(415);
    expect((await batch(alice, undefined, { raw: JSON.stringify({ chat_ids: ["x".repeat(10_000)] }) })).status).toBe(413);
  });
});
