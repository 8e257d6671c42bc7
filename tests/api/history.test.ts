import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as chatUser } from "@/app/api/ns/chat_user/route";
import { GET as chatHistory } from "@/app/api/ns/chat_history/route";
import { GET as chatHistoryOne } from "@/app/api/ns/chat_history/[chatId]/route";
import { DELETE as deleteChatRoute } from "@/app/api/ns/delete_chat/route";
import { resetConfigForTests } from "../helpers/process-state";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { dumpDatabase } from "../helpers/db-dump";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { GET as vaultGet, POST as vaultCreate, PATCH as vaultPatch } from "@/app/api/vault/route";
import { generateVaultKey, importVaultKey } from "@/lib/browser/vault/crypto";
import { displayNameFrom } from "@/lib/browser/vault/saved-chat-rules";
import { openChat, openTitle, passphraseMethod, recoveryMethod, sealTurn, type PlainMessage } from "@/lib/browser/vault/seal";
import { req, withVault, type Person } from "../helpers/vault-api";

/**
 * The signed-in chat endpoints (docs/product.md §7) and saving under the vault (docs/issues.md #8) through their real
 * handlers, the real database (PGlite, or PostgreSQL when DATABASE_URL is set) and the real openai SDK
 * against the fake LLM server. The test plays the browser: it makes the vault key, wraps it, seals
 * each turn with lib/browser/vault/seal.ts and opens what the history endpoints return.
 */
let t: TestDb;
let llm: FakeLlmServer;
let alice: Person;
let bob: Person;
const BASIC = "llama3-8b-8192";

const send = (cookie: string, content: string, extra: Record<string, unknown> = {}) =>
  chatUser(
    req("/api/ns/chat_user", {
      method: "POST",
      cookie,
      body: { messages: [{ role: "user", content }], model: BASIC, chat_id: null, save_chat: true, ...extra },
    }),
  );


/**
 * One saved turn as the browser does it: chat_user answers (storing nothing), then the turn is sealed
 * and sent to chat_save. Returns the chat id and the conversation.
 */
async function saveTurn(p: Person, history: PlainMessage[], content: string, chatId: string | null, attachment?: { name: string; text: string }) {
  const outgoing: PlainMessage[] = [...history, { role: "user", content, attachment }];
  const res = await send(p.cookie, content, { chat_id: chatId, messages: outgoing.map(({ role, content }) => ({ role, content })) });
  expect(res.status).toBe(200);
  const answer = (await res.json()) as { messages: { role: string; content: string }[]; chat_id: string | null };
  expect(answer.chat_id).toBe(chatId);
  const all: PlainMessage[] = [...outgoing, { role: "assistant", content: answer.messages.at(-1)!.content }];
  const create = chatId === null;
  const id = chatId ?? crypto.randomUUID();
  const body = await sealTurn({
    key: p.key,
    userId: p.id,
    chatId: id,
    create,
    firstPosition: create ? 0 : history.length,
    messages: create ? all : all.slice(history.length),
    title: displayNameFrom(all),
  });
  const saved = await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: p.cookie, body }));
  expect(saved.status).toBe(200);
  return { chatId: id, messages: all };
}

async function readChat(p: Person, chatId: string) {
  const res = await chatHistoryOne(req(`/api/ns/chat_history/${chatId}`, { cookie: p.cookie }), params(chatId));
  expect(res.status).toBe(200);
  return { json: await res.clone().json(), text: await res.text() };
}

const params = (chatId: string) => ({ params: Promise.resolve({ chatId }) });

beforeAll(async () => {
  llm = await startFakeLlmServer();
  process.env.LLM_BASE_URL = `${llm.url}/v1`;
  process.env.LLM_API_KEY = "test";
  t = await setupTestDb();
  resetConfigForTests();
  const a = await createTestUser("alice@example.com");
  const b = await createTestUser("bob@example.com");
  alice = await withVault(a.id);
  bob = await withVault(b.id);
});

afterAll(async () => {
  await t.cleanup();
  await llm.close();
  delete process.env.LLM_BASE_URL;
  delete process.env.LLM_API_KEY;
  resetConfigForTests();
});

beforeEach(() => {
  llm.requests.length = 0;
});

describe("POST /api/ns/chat_user and POST /api/ns/chat_save", () => {
  it("chat_user stores nothing, even with save_chat; the browser's sealed turn is stored and reads back", async () => {
    const before = await t.db.chat.count();
    const res = await send(alice.cookie, "Do not keep this", { save_chat: true });
    expect(res.status).toBe(200);
    expect((await res.json()).chat_id).toBeNull();
    expect(await t.db.chat.count()).toBe(before);

    const first = await saveTurn(alice, [], "Draft a letter to the landlord", null);
    const second = await saveTurn(alice, first.messages, "Make it shorter", first.chatId);
    const { json } = await readChat(alice, first.chatId);
    expect(json.display_name).toBeNull();
    expect(json.messages.every((m: { content: string }) => m.content === "")).toBe(true);
    const chat = await openChat(alice.key, alice.id, json);
    expect(chat.title).toBe("Draft a letter to the landlord");
    expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(chat.messages.map((m) => m.content)).toEqual(second.messages.map((m) => m.content));
  });

  it("stores a document's text with its message and gives it back as the chat's documents", async () => {
    const doc = { name: "lease.pdf", text: "Clause 7: the tenant may keep one cat." };
    const turn = await saveTurn(alice, [], "What does clause 7 say?", null, doc);
    const chat = await openChat(alice.key, alice.id, (await readChat(alice, turn.chatId)).json);
    expect(chat.messages[0]!.attachment).toEqual(doc);
    expect(chat.documents).toEqual([doc]);
  });

  it("answers 404 for another user's chat id, before calling the model and without its content", async () => {
    const mine = await saveTurn(alice, [], "Alice's private plan", null);
    llm.requests.length = 0;
    const res = await send(bob.cookie, "Let me in", { chat_id: mine.chatId });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("Alice");
    expect(llm.requests).toHaveLength(0);
    const read = await chatHistoryOne(req(`/api/ns/chat_history/${mine.chatId}`, { cookie: bob.cookie }), params(mine.chatId));
    expect(read.status).toBe(404);
    // Bob cannot append to Alice's chat either.
    const body = await sealTurn({ key: bob.key, userId: bob.id, chatId: mine.chatId, create: false, firstPosition: 2, messages: [{ role: "user", content: "x" }] });
    expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: bob.cookie, body }))).status).toBe(404);
  });

  it("creating a chat with another user's id answers exactly as with a free id, and touches nothing of theirs (docs/issues.md #22, existence oracle)", async () => {
    const mine = await saveTurn(alice, [], "Alice's chat whose id Bob learned", null);
    const bob = await withVault((await createTestUser()).id);
    const create = async (chatId: string) => {
      const body = await sealTurn({ key: bob.key, userId: bob.id, chatId, create: true, firstPosition: 0, messages: [{ role: "user", content: "Bob's own words" }] });
      const res = await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: bob.cookie, body }));
      const json = (await res.json()) as Record<string, unknown>;
      return { status: res.status, headers: [...res.headers.keys()].sort(), keys: Object.keys(json).sort(), chatId: json.chat_id };
    };
    const free = await create(crypto.randomUUID());
    const taken = await create(mine.chatId);
    // Same status, headers and body shape: nothing tells Bob the id was in use (before: 409 for `taken`).
    expect(taken).toEqual({ ...free, chatId: mine.chatId });
    expect(free.status).toBe(200);
    // Each sees their own chat under the id; Alice's is unchanged.
    const hers = await openChat(alice.key, alice.id, (await readChat(alice, mine.chatId)).json);
    expect(hers.messages.map((m) => m.content)).toEqual(mine.messages.map((m) => m.content));
    const his = await openChat(bob.key, bob.id, (await readChat(bob, mine.chatId)).json);
    expect(his.messages.map((m) => m.content)).toEqual(["Bob's own words"]);
    // Deleting his deletes only his.
    const del = await deleteChatRoute(req("/api/ns/delete_chat", { method: "DELETE", cookie: bob.cookie, body: { chat_id: mine.chatId } }));
    expect(del.status).toBe(200);
    expect((await readChat(alice, mine.chatId)).json.messages).toHaveLength(mine.messages.length);
  });

  it("refuses an append at the wrong position (409), plaintext instead of ciphertext (400), and saving without a vault (409)", async () => {
    const turn = await saveTurn(alice, [], "Counting positions", null);
    const late = await sealTurn({ key: alice.key, userId: alice.id, chatId: turn.chatId, create: false, firstPosition: 5, messages: [{ role: "user", content: "x" }] });
    expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, body: late }))).status).toBe(409);
    const plain = { ...late, first_position: 2, messages: [{ role: "user", content_ciphertext: Buffer.from("hello there, plaintext!!!!!!!!!!").toString("base64") }] };
    expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, body: plain }))).status).toBe(400);
    const carol = await createTestUser();
    const cookie = await sessionCookieFor(carol.id);
    const key = await importVaultKey(generateVaultKey());
    const body = await sealTurn({ key, userId: carol.id, chatId: crypto.randomUUID(), create: true, firstPosition: 0, messages: [{ role: "user", content: "x" }] });
    const res = await chatSave(req("/api/ns/chat_save", { method: "POST", cookie, body }));
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe("Turn on Save history first.");
  });

  it("saves a new chat in one statement: all messages or none, a second create of the same id is refused, an expired session or a deleted account saves nothing", async () => {
    const chatId = crypto.randomUUID();
    const messages: PlainMessage[] = [
      { role: "user", content: "First" },
      { role: "assistant", content: "Second" },
      { role: "user", content: "Third", attachment: { name: "a.pdf", text: "Some text" } },
    ];
    const body = await sealTurn({ key: alice.key, userId: alice.id, chatId, create: true, firstPosition: 0, messages, title: "First" });
    const res = await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, body }));
    expect(res.status).toBe(200);
    expect((await res.json()).chat_id).toBe(chatId);
    const chat = await openChat(alice.key, alice.id, (await readChat(alice, chatId)).json);
    expect(chat.title).toBe("First");
    expect(chat.messages.map((m) => m.content)).toEqual(["First", "Second", "Third"]);
    expect(chat.messages[2]!.attachment).toEqual({ name: "a.pdf", text: "Some text" });

    const again = await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, body }));
    expect(again.status).toBe(409);
    expect(await t.db.message.count({ where: { userId: alice.id, chatId } })).toBe(3);

    const erin = await createTestUser();
    const erinVault = await withVault(erin.id);
    const erinChat = crypto.randomUUID();
    const erinBody = await sealTurn({ key: erinVault.key, userId: erin.id, chatId: erinChat, create: true, firstPosition: 0, messages: [{ role: "user", content: "x" }] });
    await t.db.session.updateMany({ where: { userId: erin.id }, data: { expires: new Date(Date.now() - 1000) } });
    expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: erinVault.cookie, body: erinBody }))).status).toBe(401);
    await t.db.session.updateMany({ where: { userId: erin.id }, data: { expires: new Date(Date.now() + 86_400_000) } });
    await t.db.user.update({ where: { id: erin.id }, data: { deletedAt: new Date() } });
    expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: erinVault.cookie, body: erinBody }))).status).toBe(403);
    expect(await t.db.chat.count({ where: { id: erinChat } })).toBe(0);
    // A new chat must start at position 0 (400), whichever path stores it.
    const off = await sealTurn({ key: alice.key, userId: alice.id, chatId: crypto.randomUUID(), create: true, firstPosition: 1, messages: [{ role: "user", content: "x" }] });
    expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, body: off }))).status).toBe(400);
  });

  it("two appends at the same position at once: one is stored, the other is a 409, nothing interleaves", async () => {
    const turn = await saveTurn(alice, [], "Two tabs", null);
    const [a, b] = await Promise.all(
      ["from tab A", "from tab B"].map((content) =>
        sealTurn({ key: alice.key, userId: alice.id, chatId: turn.chatId, create: false, firstPosition: 2, messages: [{ role: "user", content }, { role: "assistant", content: `answer ${content}` }] }),
      ),
    );
    const statuses = (await Promise.all([a, b].map((body) => chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, body }))))).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 409]);
    const chat = await openChat(alice.key, alice.id, (await readChat(alice, turn.chatId)).json);
    expect(chat.messages).toHaveLength(4);
    // Both new messages come from the same tab.
    expect(chat.messages[3]!.content).toBe(`answer ${chat.messages[2]!.content}`);
  });

  it("refuses the Pro model to a Free user", async () => {
    const res = await send(alice.cookie, "Hi", { model: "llama3-70b-8192" });
    expect(res.status).toBe(403);
  });

  it("refuses a state-changing request from another origin", async () => {
    const res = await chatUser(
      req("/api/ns/chat_user", {
        method: "POST",
        cookie: alice.cookie,
        origin: "https://evil.example",
        body: { messages: [{ role: "user", content: "x" }], model: BASIC, chat_id: null, save_chat: true },
      }),
    );
    expect(res.status).toBe(403);
    const body = await sealTurn({ key: alice.key, userId: alice.id, chatId: crypto.randomUUID(), create: true, firstPosition: 0, messages: [{ role: "user", content: "x" }] });
    expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, origin: "https://evil.example", body }))).status).toBe(403);
  });
});

describe("the vault endpoints", () => {
  it("lists the methods, refuses a second vault and a vault without a recovery code, remembers history_on", async () => {
    const state = await (await vaultGet(req("/api/vault", { cookie: alice.cookie }))).json();
    expect(state.exists).toBe(true);
    expect(state.history_on).toBe(true);
    expect(state.methods.map((m: { kind: string }) => m.kind).sort()).toEqual(["passphrase", "recovery"]);
    const raw = generateVaultKey();
    const again = await vaultCreate(req("/api/vault", { method: "POST", cookie: alice.cookie, body: { methods: [(await recoveryMethod(raw, alice.id)).method] } }));
    expect(again.status).toBe(409);
    const dave = await createTestUser();
    const cookie = await sessionCookieFor(dave.id);
    const noCode = await vaultCreate(req("/api/vault", { method: "POST", cookie, body: { methods: [await passphraseMethod(raw, dave.id, "amber kettles hum beside lighthouses")] } }));
    expect(noCode.status).toBe(400);
    const off = await vaultPatch(req("/api/vault", { method: "PATCH", cookie: alice.cookie, body: { history_on: false } }));
    expect(off.status).toBe(200);
    expect((await (await vaultGet(req("/api/vault", { cookie: alice.cookie }))).json()).history_on).toBe(false);
    await vaultPatch(req("/api/vault", { method: "PATCH", cookie: alice.cookie, body: { history_on: true } }));
    expect((await vaultPatch(req("/api/vault", { method: "PATCH", cookie, body: { history_on: true } }))).status).toBe(409);
  });
});

describe("GET /api/ns/chat_history", () => {
  it("lists newest first, paginated, only the caller's chats, titles as ciphertext the browser opens", async () => {
    const names = ["first topic", "second topic", "third topic"];
    for (const n of names) await saveTurn(bob, [], n, null);
    const page1 = await (await chatHistory(req("/api/ns/chat_history?limit=2", { cookie: bob.cookie }))).json();
    const titles = (page: { chat_history: { chat_id: string; display_name_ciphertext: string | null }[] }) =>
      Promise.all(page.chat_history.map((c) => openTitle(bob.key, bob.id, c.chat_id, c.display_name_ciphertext)));
    expect(page1.chat_history.every((c: { display_name: unknown }) => c.display_name === null)).toBe(true);
    expect(await titles(page1)).toEqual(["third topic", "second topic"]);
    expect(page1.next_cursor).toEqual(expect.any(String));
    const page2 = await (
      await chatHistory(req(`/api/ns/chat_history?limit=2&cursor=${encodeURIComponent(page1.next_cursor)}`, { cookie: bob.cookie }))
    ).json();
    expect(await titles(page2)).toEqual(["first topic"]);
    expect(page2.next_cursor).toBeNull();
  });

  it("rejects a bad limit or cursor with 400", async () => {
    expect((await chatHistory(req("/api/ns/chat_history?limit=0", { cookie: bob.cookie }))).status).toBe(400);
    expect((await chatHistory(req("/api/ns/chat_history?limit=abc", { cookie: bob.cookie }))).status).toBe(400);
    expect((await chatHistory(req("/api/ns/chat_history?cursor=nonsense", { cookie: bob.cookie }))).status).toBe(400);
  });
});

describe("DELETE /api/ns/delete_chat", () => {
  it("deletes the caller's chat and answers 404 for anyone else's or an unknown id", async () => {
    const mine = await saveTurn(alice, [], "Short-lived chat", null);
    const del = (cookie: string, chat_id: unknown) =>
      deleteChatRoute(req("/api/ns/delete_chat", { method: "DELETE", cookie, body: { chat_id } }));
    expect((await del(bob.cookie, mine.chatId)).status).toBe(404);
    expect((await del(alice.cookie, mine.chatId)).status).toBe(200);
    expect((await del(alice.cookie, mine.chatId)).status).toBe(404);
    expect((await del(alice.cookie, 42)).status).toBe(400);
  });
});

describe("server blindness (docs/issues.md #8)", () => {
  it("with the database dump and the server's output, no saved title, message or document text is found", async () => {
    const canary = `canary-${crypto.randomUUID()}`;
    const docCanary = `doc-canary-${crypto.randomUUID()}`;
    const captured: string[] = [];
    const responses: string[] = [];
    const restore = captureOutput(captured);
    let chatId: string;
    try {
      const first = await saveTurn(alice, [], `Please remember ${canary} for me`, null, { name: "notes.pdf", text: `Secret notes ${docCanary}` });
      const second = await saveTurn(alice, first.messages, `And also ${canary} again`, first.chatId);
      chatId = second.chatId;
      // Every API answer about saved history, read back as the browser would.
      const { json, text } = await readChat(alice, chatId);
      responses.push(text);
      responses.push(await (await chatHistory(req("/api/ns/chat_history?limit=100", { cookie: alice.cookie }))).text());
      responses.push(await (await vaultGet(req("/api/vault", { cookie: alice.cookie }))).text());
      // Only the browser, holding the vault key, reads it back.
      const chat = await openChat(alice.key, alice.id, json);
      expect(chat.title).toContain(canary);
      expect(chat.messages[0]!.content).toContain(canary);
      expect(chat.documents[0]!.text).toContain(docCanary);
    } finally {
      restore();
    }
    const dump = await dumpDatabase(t.db);
    const logs = captured.join("\n");
    for (const secret of [canary, docCanary]) {
      for (const form of [secret, Buffer.from(secret).toString("base64"), Buffer.from(secret).toString("hex")]) {
        expect(dump).not.toContain(form);
        expect(logs).not.toContain(form);
        for (const r of responses) expect(r).not.toContain(form);
      }
    }
    // The server holds no key at all: every stored ciphertext of her chats is the browser's format 2,
    // which no server code decrypts.
    const rows = await t.db.message.findMany({ where: { chat: { userId: alice.id } } });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.contentCiphertext[0] === 3 && (!r.attachmentCiphertext || r.attachmentCiphertext[0] === 3))).toBe(true);
    expect(dump.length).toBeGreaterThan(1000);
  });
});

/** Collect everything written to stdout, stderr and the console while a test runs. */
function captureOutput(into: string[]): () => void {
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const methods = ["log", "info", "warn", "error", "debug"] as const;
  const originals = methods.map((m) => console[m]);
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    into.push(String(chunk));
    return out(chunk as string, ...(rest as []));
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    into.push(String(chunk));
    return err(chunk as string, ...(rest as []));
  }) as typeof process.stderr.write;
  methods.forEach((m, i) => {
    console[m] = (...args: unknown[]) => {
      into.push(args.map(String).join(" "));
      originals[i]!(...args);
    };
  });
  return () => {
    process.stdout.write = out;
    process.stderr.write = err;
    methods.forEach((m, i) => (console[m] = originals[i]!));
  };
}
