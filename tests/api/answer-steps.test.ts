import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { resetConfigForTests } from "../helpers/process-state";
import { decryptField, encryptField, fromBase64, generateVaultKey, importVaultKey, toBase64 } from "@/lib/browser/vault/crypto";
import { completeRotation, draftRotation, startRotation } from "@/lib/browser/vault/rotation";
import { openChat, sealTurn, type PlainMessage } from "@/lib/browser/vault/seal";
import { sealedChatsJson } from "@/lib/server/db/history-json";
import type { WebSearchRecord } from "@/lib/shared/search/record";
import type { ToolStep } from "@/lib/shared/chat/steps";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { apiOverRoutes } from "../helpers/api-over-routes";
import { createTestUser } from "../helpers/auth";
import { check, readChat, save, unlock, type Device } from "../helpers/integrity-device";
import { req, withVault, type Person } from "../helpers/vault-api";

/**
 * docs/issues.md #50: a saved answer's steps (its web search and device-tool steps) in the message's own sealed field
 * `steps_ciphertext`, through the real chat_save and chat_history handlers and the database (PGlite, or PostgreSQL
 * with DATABASE_URL): ciphertext only on the server, covered by the integrity chain, sealed again by a key rotation.
 * Chats saved before the field, with the search in the attachment field, still open with it.
 */
let t: TestDb;

const SEARCH: WebSearchRecord = {
  via: "searxng",
  engine: "search.example.org",
  queries: ["kakapo breeding season 2026"],
  sources: [{ title: "Kakapo report", url: "https://example.org/kakapo-season-2026" }],
  status: "ok",
};
const TOOLS: ToolStep[] = [{ name: "device_time", arguments: "{}", result: '{"local":"2026-12-03T09:15:00","zone":"Pacific/Auckland"}', ok: true }];
const turn = (answer: Partial<PlainMessage> = {}): PlainMessage[] => [
  { role: "user", content: "What time is it here, and how is the kakapo season?" },
  { role: "assistant", content: "It is 09:15; 41 chicks [1].", ...answer },
];

async function person(email: string): Promise<{ p: Person; d: Device }> {
  const { id } = await createTestUser(email);
  const p = await withVault(id);
  return { p, d: await unlock(p) };
}

const stored = (userId: string, chatId: string) => t.db.message.findMany({ where: { userId, chatId }, orderBy: { position: "asc" } });

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

describe("an answer's steps, sealed in a field of their own", () => {
  it("round-trip through chat_save and chat_history as ciphertext only, and open back on the answer", async () => {
    const { p, d } = await person("steps@example.com");
    const saved = await save(d, p, null, 0, turn({ search: SEARCH, tools: TOOLS }));
    expect(saved.status).toBe(200);
    const rows = await stored(p.id, saved.id);
    expect(rows.map((r) => [r.attachmentCiphertext, r.stepsCiphertext !== null])).toEqual([[null, false], [null, true]]);
    const bytes = Buffer.from(rows[1]!.stepsCiphertext!);
    expect(bytes[0]).toBe(3);
    for (const clear of ["kakapo", "example.org", "device_time", "Pacific/Auckland"]) expect(bytes.includes(clear)).toBe(false);

    const chat = await readChat(p, saved.id);
    expect(chat.messages[1]!.steps_ciphertext).toBe(saved.body.messages[1]!.steps_ciphertext);
    expect(chat.messages[0]!.steps_ciphertext).toBeNull();
    expect(await check(d, p, saved.id)).toBeNull();
    const opened = await openChat(p.key, p.id, chat);
    expect(opened.messages[1]).toMatchObject({ attachment: null, search: SEARCH, tools: TOOLS });
    expect(opened.messages[0]).not.toHaveProperty("tools");
    // Bound to its field: the same bytes do not open as the answer's attachment.
    await expect(
      decryptField(p.key, { field: "attachment", userId: p.id, chatId: saved.id, position: 1, role: "assistant" }, fromBase64(chat.messages[1]!.steps_ciphertext!)),
    ).rejects.toThrow();
  });

  it("keep \"Memory used\" with the answer, sealed, on an answer with no other step (docs/issues.md #56)", async () => {
    const { p, d } = await person("steps-memory@example.com");
    const saved = await save(d, p, null, 0, turn({ memoryUsed: true }));
    expect(saved.status).toBe(200);
    const rows = await stored(p.id, saved.id);
    expect(rows.map((r) => r.stepsCiphertext !== null)).toEqual([false, true]);
    expect(Buffer.from(rows[1]!.stepsCiphertext!).includes("memoryUsed")).toBe(false);
    const opened = await openChat(p.key, p.id, await readChat(p, saved.id));
    expect(opened.messages[1]).toMatchObject({ memoryUsed: true });
    expect(opened.messages[1]).not.toHaveProperty("tools");
    const plain = await save(d, p, null, 0, turn());
    expect((await stored(p.id, plain.id)).map((r) => r.stepsCiphertext)).toEqual([null, null]);
    expect((await openChat(p.key, p.id, await readChat(p, plain.id))).messages[1]).not.toHaveProperty("memoryUsed");
  });

  it("are replaced with the answer by a regenerate (chat_save with replace)", async () => {
    const { p, d } = await person("steps-replace@example.com");
    const saved = await save(d, p, null, 0, turn({ search: SEARCH }));
    const again = await save(d, p, saved.id, 1, [{ role: "assistant", content: "It is 09:16.", tools: TOOLS }], true);
    expect(again.status).toBe(200);
    expect(await check(d, p, saved.id)).toBeNull();
    const opened = await openChat(p.key, p.id, await readChat(p, saved.id));
    expect(opened.messages[1]).toMatchObject({ content: "It is 09:16.", tools: TOOLS });
    expect(opened.messages[1]).not.toHaveProperty("search");
  });

  it("refuses an unpadded steps ciphertext (a field newer than padding)", async () => {
    const { p, d } = await person("steps-unpadded@example.com");
    const saved = await save(d, p, null, 0, turn({ tools: TOOLS }));
    const body = { ...saved.body, chat_id: crypto.randomUUID(), messages: saved.body.messages.map((m) => ({ ...m, steps_ciphertext: m.steps_ciphertext && toBase64(Uint8Array.of(2, ...new Uint8Array(40))) })) };
    const res = await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: p.cookie, body }));
    expect(res.status).toBe(400);
  });

  it("count in the bytes a history batch adds up", async () => {
    const { p, d } = await person("steps-batch@example.com");
    const a = await save(d, p, null, 0, turn({ search: SEARCH, tools: TOOLS }));
    const b = await save(d, p, null, 0, turn({ search: SEARCH, tools: TOOLS }));
    const chats = await t.db.chat.findMany({ where: { userId: p.id }, include: { messages: true } });
    const size = (x: Uint8Array | null) => x?.length ?? 0;
    const total = chats.reduce(
      (n, c) => n + size(c.titleCiphertext) + size(c.treeCiphertext) + size(c.headerCiphertext) + c.messages.reduce((k, m) => k + size(m.contentCiphertext) + size(m.attachmentCiphertext) + size(m.stepsCiphertext), 0),
      0,
    );
    const batch = JSON.parse(await sealedChatsJson({ userId: p.id, chatIds: [a.id, b.id], maxBytes: total - 1 })) as { chats: { chat_id: string; messages: { steps_ciphertext: string | null }[] }[]; remaining_chat_ids: string[] };
    expect(batch.chats.map((c) => c.chat_id)).toEqual([a.id]);
    expect(batch.remaining_chat_ids).toEqual([b.id]);
    expect(batch.chats[0]!.messages[1]!.steps_ciphertext).toBe(a.body.messages[1]!.steps_ciphertext);
  });

  it("are covered by the integrity chain: replaced or removed, the chat warns", async () => {
    const { p, d } = await person("steps-tamper@example.com");
    const first = await save(d, p, null, 0, turn({ tools: TOOLS }));
    const other = await save(d, p, null, 0, turn({ tools: [{ ...TOOLS[0]!, result: "{}" }] }));
    const [answer] = await t.db.message.findMany({ where: { userId: p.id, chatId: first.id, position: 1 } });
    const [elsewhere] = await t.db.message.findMany({ where: { userId: p.id, chatId: other.id, position: 1 } });
    await t.db.message.update({ where: { id: answer!.id }, data: { stepsCiphertext: elsewhere!.stepsCiphertext } });
    expect(await check(d, p, first.id)).toMatch(/^Integrity warning: this chat's messages are not the ones you saved/);
    await t.db.message.update({ where: { id: answer!.id }, data: { stepsCiphertext: null } });
    expect(await check(d, p, first.id)).toMatch(/^Integrity warning: this chat's messages are not the ones you saved/);
    await t.db.message.update({ where: { id: answer!.id }, data: { stepsCiphertext: answer!.stepsCiphertext } });
    expect(await check(d, p, first.id)).toBeNull();
  });

  it("a chat saved before the field, its search in the attachment, opens with it and still verifies", async () => {
    const { p, d } = await person("steps-legacy@example.com");
    const id = await saveLegacy(d, p);
    expect(await check(d, p, id)).toBeNull();
    const opened = await openChat(p.key, p.id, await readChat(p, id));
    expect(opened.messages[1]).toMatchObject({ attachment: null, search: SEARCH });
    expect(opened.documents).toEqual([]);
  });

  it("are sealed again by a key rotation (an old chat's search moves into its own field)", async () => {
    const { p, d } = await person("steps-rotate@example.com");
    const withSteps = await save(d, p, null, 0, turn({ search: SEARCH, tools: TOOLS }));
    const legacy = await saveLegacy(d, p);
    const before = (await stored(p.id, withSteps.id))[1]!.stepsCiphertext!;
    const api = apiOverRoutes(p);
    const draft = await draftRotation(p.id, 1, generateVaultKey(), null);
    await startRotation(api, { userId: p.id, raw: p.raw, key: p.key, tracker: d.tracker }, draft);
    await completeRotation(api, { userId: p.id, raw: p.raw, key: p.key, tracker: d.tracker }, draft.next, 1);

    const next: Person = { ...p, raw: draft.next, key: await importVaultKey(draft.next) };
    const fresh = await unlock(next, undefined, 1);
    expect(fresh.problem).toBeNull();
    for (const id of [withSteps.id, legacy]) {
      const rows = await stored(p.id, id);
      const ctx = { field: "steps" as const, userId: p.id, chatId: id, position: 1, role: "assistant" };
      expect(rows[1]!.attachmentCiphertext).toBeNull();
      const steps = JSON.parse(await decryptField(next.key, ctx, new Uint8Array(rows[1]!.stepsCiphertext!))) as { search: WebSearchRecord; tools?: ToolStep[] };
      expect(steps.search).toEqual(SEARCH);
      await expect(decryptField(p.key, ctx, new Uint8Array(rows[1]!.stepsCiphertext!))).rejects.toThrow();
      expect(await check(fresh, next, id)).toBeNull();
    }
    const rotated = (await stored(p.id, withSteps.id))[1]!.stepsCiphertext!;
    expect(Buffer.from(rotated).equals(Buffer.from(before))).toBe(false);
    const opened = await openChat(next.key, p.id, await readChat(next, withSteps.id));
    expect(opened.messages[1]).toMatchObject({ search: SEARCH, tools: TOOLS });
  });
});

/** A chat as browsers saved it before the steps field: the answer's search sealed in its attachment as `{ search }`. */
async function saveLegacy(d: Device, p: Person): Promise<string> {
  const chatId = crypto.randomUUID();
  const body = await sealTurn({ key: p.key, userId: p.id, chatId, create: true, firstPosition: 0, messages: turn(), title: "Old chat" });
  const ctx = { field: "attachment" as const, userId: p.id, chatId, position: 1, role: "assistant" };
  const search = toBase64(await encryptField(p.key, ctx, JSON.stringify({ search: SEARCH })));
  // The old body: no steps field at all.
  const messages = body.messages.map((m, i) => ({ role: m.role, content_ciphertext: m.content_ciphertext, attachment_ciphertext: i === 1 ? search : m.attachment_ciphertext }));
  const integrity = await d.tracker.forWrite(chatId, true, { from: 0, messages, title_ciphertext: body.title_ciphertext });
  const res = await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: p.cookie, body: { ...body, messages, integrity: integrity.body } }));
  expect(res.status).toBe(200);
  await integrity.commit();
  return chatId;
}
