import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { getDb } from "@/lib/server/db/client";
import { resetConfigForTests } from "../helpers/process-state";
import { DISK_FULL_MESSAGE, isDiskFull } from "@/lib/server/db/errors";
import { sealTurn } from "@/lib/browser/vault/seal";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser } from "../helpers/auth";
import { startHotPathServer, stopHotPathServer } from "../helpers/hot-path-server";
import { req, withVault, type Person } from "../helpers/vault-api";

/**
 * docs/issues.md #53: a write that fails for lack of disk space answers 507 with its own sentence, not the generic 500.
 * The real database (PGlite, or PostgreSQL with DATABASE_URL) raises SQLSTATE 53100 disk_full with PostgreSQL's
 * own message from a trigger on the table chat_save writes, so the error comes through the real driver
 * (node-postgres, Prisma's adapter) to the real handlers; freeing the "space" (dropping the trigger) lets the
 * same save through.
 */
let t: TestDb;
let alice: Person;

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser("alice-disk@example.com")).id);
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

afterEach(async () => {
  await (await getDb()).$executeRawUnsafe("DROP TRIGGER IF EXISTS full_disk ON messages");
});

async function fillDisk() {
  const db = await getDb();
  await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'could not extend file "base/16384/16390": No space left on device' USING ERRCODE = 'disk_full'; END $$`);
  await db.$executeRawUnsafe("CREATE TRIGGER full_disk BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION full_disk()");
}

const turn = async (content: string) => {
  const chatId = crypto.randomUUID();
  return sealTurn({ key: alice.key, userId: alice.id, chatId, create: true, firstPosition: 0, messages: [{ role: "user", content }, { role: "assistant", content: "ok" }], title: "Disk" });
};

describe("disk full (docs/issues.md #53)", () => {
  it("chat_save answers 507 with the disk-full sentence, then saves once space is back", async () => {
    await fillDisk();
    const body = await turn("Saved on a full disk");
    const res = await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, body }));
    expect(res.status).toBe(507);
    expect(await res.json()).toEqual({ error: DISK_FULL_MESSAGE });
    expect(DISK_FULL_MESSAGE).toBe("The server has run out of disk space; your message was not saved");

    await (await getDb()).$executeRawUnsafe("DROP TRIGGER full_disk ON messages");
    const again = await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: alice.cookie, body }));
    expect(again.status).toBe(200);
  });

  it("over the hot path too", async () => {
    await fillDisk();
    const { server, base } = await startHotPathServer();
    try {
      const res = await fetch(`${base}/api/ns/chat_save`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: alice.cookie, Origin: new URL(req("/").url).origin },
        body: JSON.stringify(await turn("Hot path on a full disk")),
      });
      expect(res.status).toBe(507);
      expect(await res.json()).toEqual({ error: DISK_FULL_MESSAGE });
    } finally {
      await stopHotPathServer(server);
    }
  });

  it("the driver's own error is recognised: SQLSTATE 53100 from a real statement", async () => {
    const error = await (await getDb())
      .$executeRawUnsafe(`DO $$ BEGIN RAISE EXCEPTION 'could not write to file "pg_wal/xlogtemp": No space left on device' USING ERRCODE = 'disk_full'; END $$`)
      .catch((e: unknown) => e);
    expect(isDiskFull(error)).toBe(true);
    const other = await (await getDb()).$executeRawUnsafe("SELECT 1/0").catch((e: unknown) => e);
    expect(isDiskFull(other)).toBe(false);
  });

  it("recognises ENOSPC and the message in a cause chain, and not the other codes of class 53", () => {
    const enospc = Object.assign(new Error("write failed"), { code: "ENOSPC", errno: -28 });
    expect(isDiskFull(new Error("wrapped", { cause: new Error("again", { cause: enospc }) }))).toBe(true);
    expect(isDiskFull(new Error("could not extend file \"base/1/2\": No space left on device"))).toBe(true);
    expect(isDiskFull({ code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "53100", kind: "postgres" } } } })).toBe(true);
    expect(isDiskFull(Object.assign(new Error("out of memory"), { code: "53200" }))).toBe(false);
    expect(isDiskFull(Object.assign(new Error("too many connections"), { code: "53300" }))).toBe(false);
    expect(isDiskFull(null)).toBe(false);
  });
});
