import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { PATCH as vaultPatch } from "@/app/api/vault/route";
import { closeDb, getDb } from "@/lib/server/db/client";
import { resetConfigForTests, resetLifecycleForTests } from "../helpers/process-state";
import { beginWrite, DRAINING_MESSAGE, shutdown, writesInFlight } from "@/lib/server/lifecycle";
import { processSlot } from "@/lib/server/process-state";
import { sealTurn } from "@/lib/browser/vault/seal";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser } from "../helpers/auth";
import { startHotPathServer, stopHotPathServer } from "../helpers/hot-path-server";
import { req, withVault, type Person } from "../helpers/vault-api";

/**
 * docs/issues.md #53: a shutdown drains the database writes in flight. The real chat_save handler (through Next's route
 * file and through server.mjs's hot path over HTTP) writes to the real database (PGlite, or PostgreSQL with
 * DATABASE_URL), made slow by a trigger that sleeps on each stored message; SIGTERM's drain
 * (lib/server/lifecycle.ts shutdown) must let the save answer before the database closes, and refuse a new
 * write with 503 meanwhile.
 */
let t: TestDb;
let alice: Person;

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser("alice-drain@example.com")).id);
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

afterEach(async () => {
  resetLifecycleForTests();
  await (await getDb()).$executeRawUnsafe("DROP TRIGGER IF EXISTS slow_messages ON messages");
});

/** Each stored message waits `seconds` in the database, so a save is surely in flight when the drain starts. */
async function slowWrites(seconds: number) {
  const db = await getDb();
  await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION slow_message() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_sleep(${seconds}); RETURN NEW; END $$`);
  await db.$executeRawUnsafe("CREATE TRIGGER slow_messages BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION slow_message()");
}

const newChat = async (p: Person, content: string) => {
  const chatId = crypto.randomUUID();
  const body = await sealTurn({ key: p.key, userId: p.id, chatId, create: true, firstPosition: 0, messages: [{ role: "user", content }, { role: "assistant", content: "ok" }], title: "Drain" });
  return { chatId, body };
};

async function storedMessages(chatId: string): Promise<number> {
  const rows = await (await getDb()).$queryRawUnsafe<{ n: number }[]>("SELECT count(*)::int AS n FROM messages WHERE chat_id = $1", chatId);
  return rows[0]!.n;
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe("shutdown drains writes (docs/issues.md #53)", () => {
  it("a save in flight answers 200 and is stored; the database closes after it; a new write gets 503 JSON", async () => {
    await slowWrites(0.3);
    const first = await newChat(alice, "Saved while the server stops");
    let answered = false;
    const inFlight = chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, body: first.body })).then((res) => {
      answered = true;
      return res;
    });
    await until(() => writesInFlight() === 1);

    const order: string[] = [];
    const done = shutdown("SIGTERM", [], {
      graceMs: 20_000,
      closeResources: async () => {
        order.push(`close: save answered ${answered}, ${writesInFlight()} write(s) in flight`);
        await closeDb();
      },
      exit: (code) => void order.push(`exit ${code}`),
      log: () => undefined,
    });

    const second = await newChat(alice, "Sent after SIGTERM");
    const refused = await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, body: second.body }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({ error: DRAINING_MESSAGE });
    // Any write, not only saves: the vault's settings too.
    const vault = await vaultPatch(req("/api/vault", { method: "PATCH", cookie: alice.cookie, body: { history_on: false } }));
    expect(vault.status).toBe(503);
    expect(await vault.json()).toEqual({ error: DRAINING_MESSAGE });
    expect(order).toEqual([]);

    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ chat_id: first.chatId });
    await done;
    expect(order).toEqual(["close: save answered true, 0 write(s) in flight", "exit 0"]);

    // Reopened (the drain closed it): the first save is there whole, the refused one is not.
    resetLifecycleForTests();
    expect(await storedMessages(first.chatId)).toBe(2);
    expect(await storedMessages(second.chatId)).toBe(0);
  });

  it("over the hot path: a save in flight on a kept-alive connection gets its 200, the next request on it 503 JSON", async () => {
    await slowWrites(0.3);
    const { server, base } = await startHotPathServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const post = (body: unknown) =>
        new Promise<{ status: number; json: unknown; retryAfter?: string }>((resolve, reject) => {
          const text = JSON.stringify(body);
          const r = http.request(`${base}/api/ns/chat_save`, {
            method: "POST",
            agent,
            headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), Cookie: alice.cookie, Origin: new URL(req("/").url).origin },
          });
          r.on("response", (res) => {
            let data = "";
            res.setEncoding("utf8");
            res.on("data", (c) => (data += c));
            res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(data), retryAfter: res.headers["retry-after"] as string | undefined }));
          });
          r.on("error", reject);
          r.end(text);
        });
      const first = await newChat(alice, "Hot path save while stopping");
      const inFlight = post(first.body);
      await until(() => writesInFlight() === 1);
      const closed: number[] = [];
      const done = shutdown("SIGTERM", [], {
        graceMs: 20_000,
        closeResources: async () => void closed.push(writesInFlight()),
        exit: () => undefined,
        log: () => undefined,
      });
      // Queued behind the first on the one kept-alive socket: sent once the first is answered.
      const second = await newChat(alice, "Hot path save after SIGTERM");
      const refused = post(second.body);
      expect(await inFlight).toMatchObject({ status: 200, json: { chat_id: first.chatId } });
      expect(await refused).toEqual({ status: 503, json: { error: DRAINING_MESSAGE }, retryAfter: "1" });
      await done;
      expect(closed).toEqual([0]);
      expect(await storedMessages(first.chatId)).toBe(2);
      expect(await storedMessages(second.chatId)).toBe(0);
    } finally {
      agent.destroy();
      await stopHotPathServer(server);
    }
  });

  it("closes the connections server.mjs hands over only once the writes are done, and before the database", async () => {
    const order: string[] = [];
    const slot = processSlot<{ closeAllConnections(): void }>("httpServer");
    slot.value = { closeAllConnections: () => void order.push(`connections closed with ${writesInFlight()} write(s) in flight`) };
    try {
      const write = beginWrite();
      const done = shutdown("SIGTERM", [], { graceMs: 5_000, closeResources: async () => void order.push("database closed"), exit: () => undefined, log: () => undefined });
      expect(() => beginWrite()).toThrow(DRAINING_MESSAGE);
      await new Promise((r) => setTimeout(r, 100));
      expect(order).toEqual([]);
      write.end();
      write.end(); // a second end does nothing
      await done;
      expect(order).toEqual(["connections closed with 0 write(s) in flight", "database closed"]);
    } finally {
      slot.value = undefined;
    }
  });
});
