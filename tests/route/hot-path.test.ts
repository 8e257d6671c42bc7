import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import { sessionCookieName } from "@/lib/server/auth/cookies";
import { SAVE_IN_ONE_STATEMENT_MAX_BYTES } from "@/lib/server/chat/history";
import { resetConfigForTests } from "../helpers/process-state";
import { closeQuota } from "@/lib/server/quota";
import { blockKey, blockRedisKey, closeRateLimits } from "@/lib/server/rate-limit";
import { Redis } from "ioredis";
import { redisAvailable, TEST_REDIS_URL } from "../helpers/redis";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { sealTurn } from "@/lib/browser/vault/seal";
import { withVault } from "../helpers/vault-api";
import { t, llm, enclave, base, BASIC, KEY, confidential, statements, ask, post, setUpHotPathHarness, resetStatements } from "./hot-path-harness";

/** server.mjs's hot path over HTTP (./hot-path-harness.ts): answers, errors, statements per turn, saved chats; with Redis. */
setUpHotPathHarness();

describe("the hot path over HTTP", () => {
  it("answers a visitor's turn as JSON, with the headers Next's proxy.ts and next.config.ts add", async () => {
    const res = await post("/api/ns/chat", ask("Hello there"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = await res.json();
    expect(body.chat_id).toBeNull();
    expect(body.messages[1].content).toContain("You asked: Hello there");
  });

  it("streams Server-Sent Events: deltas, then done", async () => {
    const res = await post("/api/ns/chat", ask("Stream this"), { Accept: "text/event-stream" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    expect(text.match(/^event: delta$/gm)!.length).toBeGreaterThan(1);
    expect(text.trim().split("\n\n").at(-1)).toMatch(/^event: done\n/);
  });

  it("answers the routes' errors as { error } with their statuses", async () => {
    const notJson = await post("/api/ns/chat", "hi", { "Content-Type": "text/plain" });
    expect(notJson.status).toBe(415);
    expect(await notJson.json()).toEqual({ error: expect.stringContaining("JSON") });
    const unknownField = await post("/api/ns/chat", { ...ask("x"), extra: 1 });
    expect(unknownField.status).toBe(400);
    expect((await unknownField.json()).error).toMatch(/^Invalid request/);
    const signedOut = await post("/api/ns/chat_user", ask("x"));
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ error: expect.any(String) });
    confidential(enclave.origin);
    const plain = await post("/api/confidential/chat", "ciphertext", { "X-Hush-Model": BASIC });
    expect(plain.status).toBe(400);
    expect((await plain.json()).error).toContain("Ehbp-Encapsulated-Key");
    expect(llm.requests).toHaveLength(0);
    expect(enclave.requests).toHaveLength(0);
  });

  it.each([
    ["/api/ns/chat_user", {}],
    ["/api/ns/chat_save", {}],
    // A session cookie that is not one, with more than the save reads before checking it.
    ["/api/ns/chat_save", { Cookie: `next-auth.session-token=${"x".repeat(43)}` }],
  ])("keeps a connection usable after refusing a large body it never read (%s)", async (path, extra: Record<string, string>) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const once = (body: Buffer) =>
      new Promise<{ status: number; text: string; socket: unknown }>((resolve, reject) => {
        const req = http.request(`${base}${path}`, { method: "POST", agent, headers: { "Content-Type": "application/json", ...extra } }, (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode!, text, socket: req.socket }));
        });
        req.once("error", reject);
        req.end(body);
      });
    try {
      // 401 before the body is read (no session), then the same socket answers the next request.
      const first = await once(Buffer.alloc(4 * 1024 * 1024, 0x20));
      expect(first.status).toBe(401);
      const second = await once(Buffer.from("{}"));
      expect(second.status).toBe(401);
      expect(JSON.parse(second.text)).toEqual({ error: expect.any(String) });
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  });

  it("leaves other methods and paths to Next", async () => {
    expect((await fetch(`${base}/api/ns/chat`)).status).toBe(404);
    expect((await fetch(`${base}/api/ns/chat_history/3f1c2b7e-8d4a-4c1e-9b2f-0a1b2c3d4e5f`, { method: "DELETE" })).status).toBe(404);
    expect((await post("/api/ns/chat/", ask("x"))).status).toBe(404);
    expect((await post("/api/ns/chat_history", ask("x"))).status).toBe(404);
  });

  it("answers a signed-in turn with one database statement before the model is called", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    // The first turn of the day may move the session's idle deadline (a write at most once a day).
    expect((await post("/api/ns/chat_user", ask("warm"), { Cookie: cookie })).status).toBe(200);
    await resetStatements();
    const res = await post("/api/ns/chat_user", ask("Counted"), { Cookie: cookie });
    expect(res.status).toBe(200);
    expect((await res.json()).messages[1].content).toContain("You asked: Counted");
    expect(statements).toBe(1);
  });

  it("answers a visitor's turn with one database statement before the model is called (none on embedded PGlite)", async () => {
    // The day's salt is read once and kept; on PGlite, so is the visitor's count (lib/server/quota-write-behind.ts).
    expect((await post("/api/ns/chat", ask("warm"))).status).toBe(200);
    await resetStatements();
    expect((await post("/api/ns/chat", ask("Counted"))).status).toBe(200);
    expect(statements).toBe(t.target.kind === "pglite" ? 0 : 1);
  });

  it("saves a sealed turn (POST /api/ns/chat_save) and reads it back (list, one chat, batch), all on the hot path", async () => {
    const person = await withVault((await createTestUser()).id);
    const chatId = crypto.randomUUID();
    const body = await sealTurn({
      key: person.key,
      userId: person.id,
      chatId,
      create: true,
      firstPosition: 0,
      messages: [
        { role: "user", content: "Sealed question" },
        { role: "assistant", content: "Sealed answer" },
      ],
      title: "Sealed",
    });
    const saved = await post("/api/ns/chat_save", body, { Cookie: person.cookie });
    expect(saved.status).toBe(200);
    expect(saved.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await saved.json()).toEqual({ chat_id: chatId, last_updated: expect.any(String) });
    const opened = await fetch(`${base}/api/ns/chat_history/${chatId}`, { headers: { Cookie: person.cookie } });
    expect(opened.status).toBe(200);
    const chat = await opened.json();
    expect(chat.messages).toHaveLength(2);
    // The list and the batch read (search, export) answer here too.
    const list = await fetch(`${base}/api/ns/chat_history?limit=10`, { headers: { Cookie: person.cookie } });
    expect(list.status).toBe(200);
    expect((await list.json()).chat_history.map((c: { chat_id: string }) => c.chat_id)).toEqual([chatId]);
    expect((await fetch(`${base}/api/ns/chat_history?limit=0`, { headers: { Cookie: person.cookie } })).status).toBe(400);
    const batch = await post("/api/ns/chat_history/batch", { chat_ids: [chatId] }, { Cookie: person.cookie });
    expect(batch.status).toBe(200);
    expect((await batch.json()).chats.map((c: { chat_id: string }) => c.chat_id)).toEqual([chatId]);
    // Ciphertext only: the server never had the words.
    expect(JSON.stringify(chat)).not.toContain("Sealed answer");
    // JSON answers go out as their text with its length (the route context's `json`, lib/server/hot-path.ts HotExchange), not as a stream.
    for (const res of [saved, opened, list, batch]) expect(Number(res.headers.get("content-length"))).toBeGreaterThan(10);
    // Signed out, and cross-site: refused as by Next's route.
    expect((await post("/api/ns/chat_save", body)).status).toBe(401);
    expect((await post("/api/ns/chat_save", body, { Cookie: person.cookie, Origin: "https://elsewhere.example" })).status).toBe(403);
  });

  it("saves a turn with one database statement, the session read in it; signed out, nothing is written whatever the body", async () => {
    const person = await withVault((await createTestUser()).id);
    const chatId = crypto.randomUUID();
    const turn = (firstPosition: number, content: string) =>
      sealTurn({ key: person.key, userId: person.id, chatId, create: firstPosition === 0, firstPosition, messages: [{ role: "user", content }] });
    // The first request of the day may move the session's idle deadline (a write at most once a day).
    expect((await post("/api/ns/chat_save", await turn(0, "first"), { Cookie: person.cookie })).status).toBe(200);
    await resetStatements();
    const appended = await post("/api/ns/chat_save", await turn(1, "second"), { Cookie: person.cookie });
    expect(appended.status).toBe(200);
    expect(statements).toBe(1);
    const stored = () => t.db.message.count({ where: { chatId } });
    expect(await stored()).toBe(2);
    // Without a session: 401 before anything about the body (malformed, or a shape the save refuses).
    for (const body of [await turn(2, "third"), { ...(await turn(2, "third")), create: true }, { chat_id: chatId }]) {
      const refused = await post("/api/ns/chat_save", body, { Cookie: `${sessionCookieName()}=not-a-session` });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ error: expect.any(String) });
    }
    expect(await stored()).toBe(2);
    // More than the save reads before the session is checked: checked first, then read and saved.
    const big = await turn(2, "x".repeat(0.6 * SAVE_IN_ONE_STATEMENT_MAX_BYTES));
    expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(SAVE_IN_ONE_STATEMENT_MAX_BYTES);
    await resetStatements();
    const bigSaved = await post("/api/ns/chat_save", big, { Cookie: person.cookie });
    expect(bigSaved.status).toBe(200);
    expect(statements).toBe(2);
    expect(await stored()).toBe(3);
  });

  it("opens one saved chat (GET /api/ns/chat_history/{id}): 401 signed out, 404 not the caller's, in one statement", async () => {
    const id = "3f1c2b7e-8d4a-4c1e-9b2f-0a1b2c3d4e5f";
    const signedOut = await fetch(`${base}/api/ns/chat_history/${id}`);
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ error: expect.any(String) });
    const cookie = await sessionCookieFor((await createTestUser()).id);
    expect((await fetch(`${base}/api/ns/chat_history/${id}`, { headers: { Cookie: cookie } })).status).toBe(404);
    await resetStatements();
    const missing = await fetch(`${base}/api/ns/chat_history/${id}`, { headers: { Cookie: cookie } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await missing.json()).toEqual({ error: expect.any(String) });
    expect(statements).toBe(1);
    // Not this route: left to Next (404 from this test's stand-in).
    for (const path of ["/api/ns/chat_history/batch", `/api/ns/chat_history/${id}/more`, "/api/ns/chat_history/"]) {
      expect(await (await fetch(`${base}${path}`, { headers: { Cookie: cookie } })).json()).toEqual({ error: "not on the hot path" });
    }
  });

});

describe.runIf(await redisAvailable())("with REDIS_URL: one round trip before the model is called", () => {
  // A database number of its own, so that MONITOR tells this file's commands from other users of the server.
  const db = 1 + Math.floor(Math.random() * 15);
  let monitor: Awaited<ReturnType<Redis["monitor"]>>;
  const commands: string[][] = [];

  beforeAll(async () => {
    const url = new URL(TEST_REDIS_URL);
    url.pathname = `/${db}`;
    process.env.REDIS_URL = url.toString();
    resetConfigForTests();
    monitor = await new Redis(TEST_REDIS_URL).monitor();
    // Commands a script runs show with the source "lua": the round trip is the script's own EVAL.
    monitor.on("monitor", (_time: string, args: string[], source: string, database: string) => {
      if (Number(database) === db && !/lua/i.test(source)) commands.push(args);
    });
  });

  afterAll(async () => {
    monitor.disconnect();
    await closeQuota();
    await closeRateLimits();
    delete process.env.REDIS_URL;
    resetConfigForTests();
  });

  /** Redis commands and SQL statements of one request, after a first one of the same kind (salt, session). */
  async function roundTrips(send: () => Promise<Response>): Promise<{ redis: string[]; sql: number }> {
    const warm = await send();
    expect(warm.status).toBe(200);
    await warm.arrayBuffer();
    await new Promise((r) => setTimeout(r, 100));
    commands.length = 0;
    await resetStatements();
    const res = await send();
    expect(res.status).toBe(200);
    const sql = statements;
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 100));
    return { redis: commands.map((c) => c[0]!.toLowerCase()), sql };
  }

  it("a visitor's turn: one Redis script, no SQL", async () => {
    expect(await roundTrips(() => post("/api/ns/chat", ask("Redis")))).toEqual({ redis: ["eval"], sql: 0 });
  });

  it("a signed-in turn: one SQL statement (the quota counted in it), no Redis", async () => {
    const cookie = await sessionCookieFor((await createTestUser()).id);
    expect(await roundTrips(() => post("/api/ns/chat_user", ask("Redis"), { Cookie: cookie }))).toEqual({ redis: [], sql: 1 });
  });

  it("a visitor's confidential turn: the refusal list and the quota in one Redis script, no SQL; a refused visitor is not counted", async () => {
    confidential(enclave.origin);
    const headers = { "X-Hush-Model": BASIC, "Ehbp-Encapsulated-Key": KEY, "Content-Type": "application/octet-stream" };
    const send = () => post("/api/confidential/chat", Buffer.from("sealed"), headers);
    expect(await roundTrips(send)).toEqual({ redis: ["eval"], sql: 0 });
    // The test client's address (the socket peer) refused, as after a usage report naming another model.
    await blockKey("confidential-model-mismatch", "v:127.0.0.1", 60);
    try {
      await new Promise((r) => setTimeout(r, 100));
      commands.length = 0;
      const refused = await send();
      expect(refused.status).toBe(403);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 100));
      expect(commands.map((c) => c[0]!.toLowerCase())).toEqual(["eval"]);
      expect(enclave.requests).toHaveLength(2);
    } finally {
      // The refusal outlives the process in Redis: a run of this file within the minute on the same
      // database number would be refused at its first turn.
      const redis = new Redis(process.env.REDIS_URL!);
      await redis.del(blockRedisKey("confidential-model-mismatch", "v:127.0.0.1")!);
      redis.disconnect();
    }
  });
});
