import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appendMessages,
  ChatNotFoundError,
  createChat,
  deleteChat,
  ensureDataKey,
  getChat,
  InvalidCursorError,
  InvalidInputError,
  listChats,
  UserUnavailableError,
  type ChatSummary,
} from "@/lib/db/queries";
import { createUser, setupTestDb, type TestDb } from "./setup-db";

let t: TestDb;
beforeAll(async () => {
  t = await setupTestDb();
});
afterAll(async () => {
  await t?.cleanup();
});

describe("chats", () => {
  it("creates, appends, reads and deletes a chat", async () => {
    const userId = await createUser(t.db);
    const created = await createChat({
      userId,
      title: "Quarterly figures",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Summarise this", attachment: { name: "q3.pdf", text: "Revenue rose 4%." } },
        { role: "assistant", content: "Revenue rose 4% 📈" },
      ],
    });
    expect(created.chatId).toMatch(/^[0-9a-f-]{36}$/);

    const appended = await appendMessages({
      userId,
      chatId: created.chatId,
      messages: [
        { role: "user", content: "And costs?" },
        { role: "assistant", content: "" },
      ],
    });
    expect(appended.lastUpdated.getTime()).toBeGreaterThanOrEqual(created.lastUpdated.getTime());

    const chat = await getChat({ userId, chatId: created.chatId });
    expect(chat.title).toBe("Quarterly figures");
    // Ids are case-insensitive, as PostgreSQL's uuid type is.
    expect((await getChat({ userId, chatId: created.chatId.toUpperCase() })).chatId).toBe(created.chatId);
    expect(chat.lastUpdated.getTime()).toBe(appended.lastUpdated.getTime());
    expect(chat.messages.map((m) => [m.position, m.role, m.content])).toEqual([
      [0, "system", "Be brief."],
      [1, "user", "Summarise this"],
      [2, "assistant", "Revenue rose 4% 📈"],
      [3, "user", "And costs?"],
      [4, "assistant", ""],
    ]);
    expect(chat.messages[1]!.attachment).toEqual({ name: "q3.pdf", text: "Revenue rose 4%." });
    expect(chat.messages.filter((m) => m.attachment)).toHaveLength(1);

    expect(await deleteChat({ userId, chatId: created.chatId })).toBe(true);
    expect(await deleteChat({ userId, chatId: created.chatId })).toBe(false);
    await expect(getChat({ userId, chatId: created.chatId })).rejects.toBeInstanceOf(ChatNotFoundError);
    expect(await t.db.message.count({ where: { chatId: created.chatId } })).toBe(0);
  });

  it("stores timestamps as the true instant, whatever the database's time zone", async () => {
    const userId = await createUser(t.db);
    const { chatId, lastUpdated } = await createChat({ userId, messages: [{ role: "user", content: "t" }] });
    const [row] = await t.db.$queryRaw<{ ms: number; message_ms: number }[]>`
      SELECT (extract(epoch FROM c.last_updated) * 1000)::float8 AS ms,
             (extract(epoch FROM m.created_at) * 1000)::float8 AS message_ms
      FROM chats c JOIN messages m ON m.chat_id = c.id WHERE c.id = ${chatId}::uuid`;
    expect(row!.ms).toBe(lastUpdated.getTime());
    // A database default (CURRENT_TIMESTAMP) reads back as the same instant through Prisma.
    const message = await t.db.message.findFirstOrThrow({ where: { chatId } });
    expect(message.createdAt.getTime()).toBe(row!.message_ms);
    expect(Math.abs(row!.message_ms - Date.now())).toBeLessThan(60_000);
  });

  it("keeps a chat without a title untitled", async () => {
    const userId = await createUser(t.db);
    const { chatId } = await createChat({ userId, messages: [{ role: "user", content: "hi" }] });
    expect((await getChat({ userId, chatId })).title).toBeNull();
    expect((await listChats({ userId, limit: 10 })).chats).toEqual([
      { chatId, title: null, lastUpdated: expect.any(Date) },
    ]);
  });

  it("treats another user's chat as missing", async () => {
    const owner = await createUser(t.db);
    const other = await createUser(t.db);
    await ensureDataKey(other);
    const { chatId } = await createChat({ userId: owner, title: "mine", messages: [{ role: "user", content: "x" }] });

    await expect(getChat({ userId: other, chatId })).rejects.toBeInstanceOf(ChatNotFoundError);
    await expect(
      appendMessages({ userId: other, chatId, messages: [{ role: "user", content: "y" }] }),
    ).rejects.toBeInstanceOf(ChatNotFoundError);
    expect(await deleteChat({ userId: other, chatId })).toBe(false);
    expect((await listChats({ userId: other, limit: 10 })).chats).toEqual([]);
    // Untouched for its owner.
    const chat = await getChat({ userId: owner, chatId });
    expect(chat.messages.map((m) => m.content)).toEqual(["x"]);
  });

  it("answers ChatNotFoundError for unknown and malformed ids", async () => {
    const userId = await createUser(t.db);
    await ensureDataKey(userId);
    const missing = "00000000-0000-4000-8000-000000000000";
    await expect(getChat({ userId, chatId: missing })).rejects.toBeInstanceOf(ChatNotFoundError);
    await expect(getChat({ userId, chatId: "not-a-uuid" })).rejects.toBeInstanceOf(ChatNotFoundError);
    await expect(
      appendMessages({ userId, chatId: "'; DROP TABLE chats; --", messages: [{ role: "user", content: "y" }] }),
    ).rejects.toBeInstanceOf(ChatNotFoundError);
    expect(await deleteChat({ userId, chatId: "nope" })).toBe(false);
  });

  it("rejects unknown roles and users", async () => {
    const userId = await createUser(t.db);
    await expect(
      createChat({ userId, messages: [{ role: "tool" as "user", content: "x" }] }),
    ).rejects.toBeInstanceOf(InvalidInputError);
    await expect(
      createChat({ userId: "no-such-user", messages: [{ role: "user", content: "x" }] }),
    ).rejects.toBeInstanceOf(UserUnavailableError);
    await expect(ensureDataKey("no-such-user")).rejects.toBeInstanceOf(UserUnavailableError);
  });

  it("creates a data key once, also under concurrent calls", async () => {
    const userId = await createUser(t.db);
    await Promise.all([ensureDataKey(userId), ensureDataKey(userId), ensureDataKey(userId)]);
    const first = await t.db.dataKey.findUniqueOrThrow({ where: { userId } });
    await ensureDataKey(userId);
    const again = await t.db.dataKey.findUniqueOrThrow({ where: { userId } });
    expect(Buffer.from(again.wrappedKey).equals(Buffer.from(first.wrappedKey))).toBe(true);
  });

  it("serialises concurrent appends to one chat", async () => {
    const userId = await createUser(t.db);
    const { chatId } = await createChat({ userId, messages: [{ role: "user", content: "0" }] });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        appendMessages({ userId, chatId, messages: [{ role: "user", content: String(i + 1) }] }),
      ),
    );
    const chat = await getChat({ userId, chatId });
    expect(chat.messages.map((m) => m.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(chat.messages.map((m) => m.content)).size).toBe(9);
  });
});

describe("listChats", () => {
  it("pages through 120 chats newest first, complete and without duplicates", async () => {
    const userId = await createUser(t.db);
    const noise = await createUser(t.db);
    await createChat({ userId: noise, title: "not yours", messages: [] });
    for (let i = 0; i < 120; i++) {
      await createChat({ userId, title: `chat ${i}`, messages: [{ role: "user", content: `m${i}` }] });
    }
    // Ties on lastUpdated (groups of 10 share a timestamp) exercise the id tie-break.
    const rows = await t.db.chat.findMany({ where: { userId }, select: { id: true } });
    for (const [i, row] of rows.entries()) {
      const at = new Date(Date.UTC(2030, 0, 1) + Math.floor(i / 10) * 60_000);
      await t.db.chat.update({ where: { id: row.id }, data: { lastUpdated: at } });
    }

    const seen: ChatSummary[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { chats: ChatSummary[]; nextCursor: string | null } = await listChats({ userId, limit: 25, cursor });
      seen.push(...page.chats);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);

    expect(pages).toBe(5);
    expect(seen).toHaveLength(120);
    expect(new Set(seen.map((c) => c.chatId)).size).toBe(120);
    const expected = [...seen].sort(
      (a, b) => b.lastUpdated.getTime() - a.lastUpdated.getTime() || (a.chatId < b.chatId ? 1 : -1),
    );
    expect(seen.map((c) => c.chatId)).toEqual(expected.map((c) => c.chatId));
    expect(new Set(seen.map((c) => c.title))).toEqual(new Set(Array.from({ length: 120 }, (_, i) => `chat ${i}`)));

    // An exact multiple of the page size ends with a null cursor, not an empty page.
    const all = await listChats({ userId, limit: 100 });
    const rest = await listChats({ userId, limit: 20, cursor: all.nextCursor });
    expect(rest.chats).toHaveLength(20);
    expect(rest.nextCursor).toBeNull();
  });

  it("moves a chat to the top when a message is appended", async () => {
    const userId = await createUser(t.db);
    const a = await createChat({ userId, title: "a", messages: [{ role: "user", content: "1" }] });
    await createChat({ userId, title: "b", messages: [{ role: "user", content: "1" }] });
    await new Promise((r) => setTimeout(r, 5));
    await appendMessages({ userId, chatId: a.chatId, messages: [{ role: "assistant", content: "2" }] });
    const { chats } = await listChats({ userId, limit: 10 });
    expect(chats.map((c) => c.title)).toEqual(["a", "b"]);
  });

  it("rejects bad limits and foreign cursors", async () => {
    const userId = await createUser(t.db);
    await expect(listChats({ userId, limit: 0 })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(listChats({ userId, limit: 1.5 })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(listChats({ userId, limit: 10, cursor: "garbage" })).rejects.toBeInstanceOf(InvalidCursorError);
  });
});

describe("no plaintext at rest", () => {
  it("never stores a title, message or attachment in the clear", async () => {
    const canary = `CANARY-${Math.random().toString(36).slice(2)}-zebra-quartz`;
    const control = `CONTROL-${Math.random().toString(36).slice(2)}`;
    const userId = await createUser(t.db);
    // Positive control: a value stored in the clear on purpose must be found by the same search.
    await t.db.user.update({ where: { id: userId }, data: { name: control } });
    const { chatId } = await createChat({
      userId,
      title: `${canary} title`,
      messages: [{ role: "user", content: `${canary} message`, attachment: { name: `${canary}.pdf`, text: canary } }],
    });
    await appendMessages({ userId, chatId, messages: [{ role: "assistant", content: canary }] });
    expect((await getChat({ userId, chatId })).messages[0]!.attachment!.name).toBe(`${canary}.pdf`);

    const dump = await dumpAllTables();
    expect(dump.length).toBeGreaterThan(1000);
    expect(dump.includes(control)).toBe(true);
    for (const needle of encodings(canary)) {
      expect(dump.includes(needle), `found ${needle} in the dump`).toBe(false);
    }
    if (t.target.kind === "pglite") {
      // The database files themselves (heap, WAL) after a checkpoint.
      await t.db.$executeRawUnsafe("CHECKPOINT");
      const raw = readTree(t.target.dataDir);
      expect(raw.length).toBeGreaterThan(1_000_000);
      expect(raw.includes(Buffer.from(control))).toBe(true);
      for (const needle of encodings(canary)) expect(raw.includes(Buffer.from(needle))).toBe(false);
    }
  });
});

/** The canary as plain text, hex and base64 (at each of the three byte alignments). */
function encodings(canary: string): string[] {
  const bytes = Buffer.from(canary);
  const base64 = [0, 1, 2].map((shift) => {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString("base64");
    // Drop the characters that depend on the unknown neighbouring bytes.
    return b64.slice(Math.ceil((shift * 4) / 3) + 1, -4);
  });
  return [canary, bytes.toString("hex"), bytes.toString("hex").toUpperCase(), ...base64];
}

/** Every row of every table in the public schema, as JSON text plus the decoded bytes of bytea values. */
async function dumpAllTables(): Promise<string> {
  const tables = await t.db.$queryRawUnsafe<{ table_name: string }[]>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  expect(tables.map((r) => r.table_name)).toEqual(expect.arrayContaining(["users", "data_keys", "chats", "messages"]));
  let dump = "";
  for (const { table_name } of tables) {
    const rows = await t.db.$queryRawUnsafe<{ row: string }[]>(`SELECT row_to_json(t)::text AS row FROM "${table_name}" t`);
    for (const { row } of rows) {
      dump += `${row}\n`;
      for (const hex of row.match(/\\\\x[0-9a-f]+/g) ?? []) dump += `${Buffer.from(hex.slice(3), "hex").toString("latin1")}\n`;
    }
  }
  return dump;
}

function readTree(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) parts.push(fs.readFileSync(path.join(entry.parentPath, entry.name)));
  }
  return Buffer.concat(parts);
}
