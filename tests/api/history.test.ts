import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as chatUser } from "@/app/api/ns/chat_user/route";
import { GET as chatHistory } from "@/app/api/ns/chat_history/route";
import { GET as chatHistoryOne } from "@/app/api/ns/chat_history/[chatId]/route";
import { DELETE as deleteChatRoute } from "@/app/api/ns/delete_chat/route";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { shutdownPdfWorkers } from "@/lib/pdf";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { dumpDatabase } from "../helpers/db-dump";

/**
 * The signed-in chat endpoints (spec §7) through their real handlers, the real database (PGlite, or
 * PostgreSQL when DATABASE_URL is set) and the real openai SDK against the fake LLM server.
 */
let t: TestDb;
let llm: FakeLlmServer;
let alice: { id: string; cookie: string };
let bob: { id: string; cookie: string };
const BASIC = "llama3-8b-8192";

function req(path: string, init: { method?: string; cookie?: string; body?: unknown; origin?: string } = {}) {
  const origin = new URL(getConfig().APP_URL).origin;
  const headers: Record<string, string> = { Origin: init.origin ?? origin };
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  return new Request(`${origin}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

const send = (cookie: string, content: string, extra: Record<string, unknown> = {}) =>
  chatUser(
    req("/api/ns/chat_user", {
      method: "POST",
      cookie,
      body: { messages: [{ role: "user", content }], model: BASIC, file: null, chat_id: null, save_chat: true, ...extra },
    }),
  );

const params = (chatId: string) => ({ params: Promise.resolve({ chatId }) });

beforeAll(async () => {
  llm = await startFakeLlmServer();
  process.env.LLM_BASE_URL = `${llm.url}/v1`;
  process.env.LLM_API_KEY = "test";
  t = await setupTestDb();
  resetConfigForTests();
  const a = await createTestUser("alice@example.com");
  const b = await createTestUser("bob@example.com");
  alice = { id: a.id, cookie: await sessionCookieFor(a.id) };
  bob = { id: b.id, cookie: await sessionCookieFor(b.id) };
});

afterAll(async () => {
  await t.cleanup();
  await llm.close();
  await shutdownPdfWorkers();
  delete process.env.LLM_BASE_URL;
  delete process.env.LLM_API_KEY;
  resetConfigForTests();
});

beforeEach(() => {
  llm.requests.length = 0;
});

describe("POST /api/ns/chat_user", () => {
  it("creates a chat on the first saved send, appends afterwards, and names it from the first message", async () => {
    const first = await send(alice.cookie, "Draft a letter to the landlord");
    expect(first.status).toBe(200);
    const a = await first.json();
    expect(a.chat_id).toMatch(/^[0-9a-f-]{36}$/);

    const second = await send(alice.cookie, "Make it shorter", {
      chat_id: a.chat_id,
      messages: [...a.messages, { role: "user", content: "Make it shorter" }],
    });
    expect(second.status).toBe(200);
    expect((await second.json()).chat_id).toBe(a.chat_id);

    const one = await chatHistoryOne(req(`/api/ns/chat_history/${a.chat_id}`, { cookie: alice.cookie }), params(a.chat_id));
    const chat = await one.json();
    expect(chat.display_name).toBe("Draft a letter to the landlord");
    expect(chat.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(chat.messages[2].content).toBe("Make it shorter");
  });

  it("stores nothing when save_chat is false", async () => {
    const before = await t.db.chat.count();
    const res = await send(alice.cookie, "Do not keep this", { save_chat: false });
    expect(res.status).toBe(200);
    expect((await res.json()).chat_id).toBeNull();
    expect(await t.db.chat.count()).toBe(before);
  });

  it("answers 404 for another user's chat id, before calling the model and without its content", async () => {
    const mine = await (await send(alice.cookie, "Alice's private plan")).json();
    llm.requests.length = 0;
    const res = await send(bob.cookie, "Let me in", { chat_id: mine.chat_id });
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toContain("Alice");
    expect(llm.requests).toHaveLength(0);
    const read = await chatHistoryOne(req(`/api/ns/chat_history/${mine.chat_id}`, { cookie: bob.cookie }), params(mine.chat_id));
    expect(read.status).toBe(404);
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
        body: { messages: [{ role: "user", content: "x" }], model: BASIC, file: null, chat_id: null, save_chat: true },
      }),
    );
    expect(res.status).toBe(403);
  });
});

describe("GET /api/ns/chat_history", () => {
  it("lists newest first, paginated, only the caller's chats", async () => {
    const names = ["first topic", "second topic", "third topic"];
    for (const n of names) expect((await send(bob.cookie, n)).status).toBe(200);
    const page1 = await (await chatHistory(req("/api/ns/chat_history?limit=2", { cookie: bob.cookie }))).json();
    expect(page1.chat_history.map((c: { display_name: string }) => c.display_name)).toEqual(["third topic", "second topic"]);
    expect(page1.next_cursor).toEqual(expect.any(String));
    const page2 = await (
      await chatHistory(req(`/api/ns/chat_history?limit=2&cursor=${encodeURIComponent(page1.next_cursor)}`, { cookie: bob.cookie }))
    ).json();
    expect(page2.chat_history.map((c: { display_name: string }) => c.display_name)).toEqual(["first topic"]);
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
    const mine = await (await send(alice.cookie, "Short-lived chat")).json();
    const del = (cookie: string, chat_id: unknown) =>
      deleteChatRoute(req("/api/ns/delete_chat", { method: "DELETE", cookie, body: { chat_id } }));
    expect((await del(bob.cookie, mine.chat_id)).status).toBe(404);
    expect((await del(alice.cookie, mine.chat_id)).status).toBe(200);
    expect((await del(alice.cookie, mine.chat_id)).status).toBe(404);
    expect((await del(alice.cookie, 42)).status).toBe(400);
  });
});

describe("privacy", () => {
  it("a canary sent in a saved chat appears nowhere in a full database dump nor in the server's output", async () => {
    const canary = `canary-${crypto.randomUUID()}`;
    const captured: string[] = [];
    const restore = captureOutput(captured);
    try {
      const res = await send(alice.cookie, `Please remember ${canary} for me`);
      expect(res.status).toBe(200);
      const { chat_id } = await res.json();
      // Decrypting through the API proves it was stored...
      const chat = await (await chatHistoryOne(req(`/api/ns/chat_history/${chat_id}`, { cookie: alice.cookie }), params(chat_id))).json();
      expect(chat.messages[0].content).toContain(canary);
    } finally {
      restore();
    }
    // ...and nowhere as plaintext.
    const dump = await dumpDatabase(t.db);
    const logs = captured.join("\n");
    for (const form of [canary, Buffer.from(canary).toString("base64"), Buffer.from(canary).toString("hex")]) {
      expect(dump).not.toContain(form);
      expect(logs).not.toContain(form);
    }
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
