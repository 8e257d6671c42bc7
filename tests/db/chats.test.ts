import fs from "node:fs";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import {
  deleteChat,
  getSealedChat,
  listSealedChats,
  saveSealedTurn,
  saveSealedTurnForSession,
  shredUserData,
  type SealedChatSummary,
} from "@/lib/server/db/queries";
import { openChat, sealTurn } from "@/lib/browser/vault/seal";
import { createSession, hashSessionToken } from "@/lib/server/db/sessions";
import { createUser, setupTestDb, type TestDb } from "./setup-db";
import { req, withVault } from "../helpers/vault-api";

/**
 * The saved-chat data layer (lib/server/db/queries.ts, lib/server/db/sealed-chats.ts) against a real database: the
 * server stores the browser's ciphertext as opaque bytes, scoped by user.
 */
let t: TestDb;
beforeAll(async () => {
  t = await setupTestDb();
});
afterAll(async () => {
  await t?.cleanup();
});

const opaque = (bytes = 48) => new Uint8Array(randomBytes(bytes));

/** A user with a vault row (all the server needs to store sealed chats) and `n` chats of opaque bytes. */
async function userWithChats(n: number): Promise<{ userId: string; chatIds: string[] }> {
  const userId = await createUser(t.db);
  await t.db.vault.create({ data: { userId } });
  const chatIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const chatId = randomUUID();
    await saveSealedTurn({
      userId,
      chatId,
      create: true,
      title: opaque(),
      firstPosition: 0,
      messages: [{ role: "user", content: opaque(), attachment: null }],
    });
    chatIds.push(chatId);
  }
  return { userId, chatIds };
}

describe("deleteChat", () => {
  it("deletes the owner's chat with its messages, and nobody else's", async () => {
    const { userId, chatIds } = await userWithChats(1);
    const other = await userWithChats(0);
    const chatId = chatIds[0]!;
    expect(await deleteChat({ userId: other.userId, chatId })).toBe(false);
    expect(await deleteChat({ userId, chatId: "'; DROP TABLE chats; --" })).toBe(false);
    expect(await deleteChat({ userId, chatId: randomUUID() })).toBe(false);
    expect(await deleteChat({ userId, chatId: chatId.toUpperCase() })).toBe(true);
    expect(await deleteChat({ userId, chatId })).toBe(false);
    expect(await t.db.message.count({ where: { chatId } })).toBe(0);
  });
});

describe("listSealedChats", () => {
  it("pages through 120 chats newest first, complete and without duplicates", async () => {
    const { userId } = await userWithChats(120);
    await userWithChats(1); // another user's chat never shows
    // Ties on lastUpdated (groups of 10 share a timestamp) exercise the id tie-break.
    const rows = await t.db.chat.findMany({ where: { userId }, select: { id: true } });
    for (const [i, row] of rows.entries()) {
      const at = new Date(Date.UTC(2030, 0, 1) + Math.floor(i / 10) * 60_000);
      await t.db.chat.update({ where: { userId_id: { userId, id: row.id } }, data: { lastUpdated: at } });
    }

    const seen: SealedChatSummary[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { chats: SealedChatSummary[]; nextCursor: string | null } = await listSealedChats({ userId, limit: 25, cursor });
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

    // An exact multiple of the page size ends with a null cursor, not an empty page.
    const all = await listSealedChats({ userId, limit: 100 });
    const rest = await listSealedChats({ userId, limit: 20, cursor: all.nextCursor });
    expect(rest.chats).toHaveLength(20);
    expect(rest.nextCursor).toBeNull();
  });

  it("rejects bad limits and foreign cursors", async () => {
    const userId = await createUser(t.db);
    await expect(listSealedChats({ userId, limit: 0 })).rejects.toMatchObject({ code: "bad_request:input" });
    await expect(listSealedChats({ userId, limit: 1.5 })).rejects.toMatchObject({ code: "bad_request:input" });
    await expect(listSealedChats({ userId, limit: 101 })).rejects.toMatchObject({ code: "bad_request:input" });
    await expect(listSealedChats({ userId, limit: 10, cursor: "garbage" })).rejects.toMatchObject({ code: "bad_request:cursor" });
  });
});

describe("shredUserData", () => {
  it("deletes the vault, its wraps and every chat in one go, leaving a bystander untouched", async () => {
    const { userId, chatIds } = await userWithChats(2);
    const bystander = await userWithChats(1);
    await t.db.vaultMethod.create({
      data: { id: randomUUID(), userId, kind: "passphrase", wrappedKey: opaque(), kdf: {} },
    });

    expect(await shredUserData(userId)).toEqual({ chatsDeleted: 2 });
    expect(await t.db.chat.count({ where: { userId } })).toBe(0);
    expect(await t.db.message.count({ where: { chatId: { in: chatIds } } })).toBe(0);
    expect(await t.db.vault.count({ where: { userId } })).toBe(0);
    expect(await t.db.vaultMethod.count({ where: { userId } })).toBe(0);
    const user = await t.db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.deletedAt).toBeInstanceOf(Date);
    expect((await getSealedChat({ userId: bystander.userId, chatId: bystander.chatIds[0]! })).messages).toHaveLength(1);

    // Without a vault nothing can be saved for the account any more.
    await expect(
      saveSealedTurn({ userId, chatId: randomUUID(), create: true, title: null, firstPosition: 0, messages: [] }),
    ).rejects.toMatchObject({ code: "conflict:no_vault" });

    // Idempotent, and deletedAt keeps its first value.
    expect(await shredUserData(userId)).toEqual({ chatsDeleted: 0 });
    expect((await t.db.user.findUniqueOrThrow({ where: { id: userId } })).deletedAt).toEqual(user.deletedAt);
  });
});

describe("no plaintext at rest", () => {
  it("never stores a title, message or attachment in the clear", async () => {
    const canary = `CANARY-${Math.random().toString(36).slice(2)}-zebra-quartz`;
    const control = `CONTROL-${Math.random().toString(36).slice(2)}`;
    const userId = await createUser(t.db);
    // Positive control: a value stored in the clear on purpose must be found by the same search.
    await t.db.user.update({ where: { id: userId }, data: { name: control } });
    const person = await withVault(userId);
    const chatId = randomUUID();
    const messages = [
      { role: "user" as const, content: `${canary} message`, attachment: { name: `${canary}.pdf`, text: canary } },
      { role: "assistant" as const, content: canary },
    ];
    const body = await sealTurn({ key: person.key, userId, chatId, create: true, firstPosition: 0, messages, title: `${canary} title` });
    expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: person.cookie, body }))).status).toBe(200);
    const stored = await getSealedChat({ userId, chatId });
    const b64 = (bytes: Uint8Array | null) => (bytes ? Buffer.from(bytes).toString("base64") : null);
    const reopened = await openChat(person.key, userId, {
      chat_id: chatId,
      display_name_ciphertext: b64(stored.title),
      last_updated: stored.lastUpdated.toISOString(),
      messages: stored.messages.map((m) => ({
        role: m.role as "user" | "assistant",
        position: m.position,
        content_ciphertext: b64(m.content)!,
        attachment_ciphertext: b64(m.attachment),
      })),
    });
    expect(reopened.documents[0]!.name).toBe(`${canary}.pdf`);

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
  expect(tables.map((r) => r.table_name)).toEqual(expect.arrayContaining(["users", "vault_methods", "chats", "messages"]));
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

describe("saveSealedTurnForSession (the session read in the save's statement)", () => {
  const turn = (chatId: string, create = true, firstPosition = 0) => ({
    chatId,
    create,
    title: opaque(),
    firstPosition,
    messages: [{ role: "user" as const, content: opaque(), attachment: null }],
  });
  const stored = (chatId: string) => t.db.message.count({ where: { chatId } });

  it("writes for a live session and returns its row; appends to the session user's chat only", async () => {
    const { userId, chatIds } = await userWithChats(1);
    const { token } = await createSession(userId);
    const chatId = randomUUID();
    const saved = await saveSealedTurnForSession(hashSessionToken(token), new Date(), turn(chatId));
    expect(saved.session?.user).toEqual({ id: userId, email: expect.any(String), deletedAt: null });
    expect(saved.value().lastUpdated).toBeInstanceOf(Date);
    expect(await stored(chatId)).toBe(1);
    const appended = await saveSealedTurnForSession(hashSessionToken(token), new Date(), turn(chatIds[0]!, false, 1));
    appended.value();
    expect(await stored(chatIds[0]!)).toBe(2);
    // Another user's chat: 404 once the session passed, nothing written.
    const other = await userWithChats(1);
    const foreign = await saveSealedTurnForSession(hashSessionToken(token), new Date(), turn(other.chatIds[0]!, false, 1));
    expect(foreign.session?.user.id).toBe(userId);
    expect(() => foreign.value()).toThrow(expect.objectContaining({ code: "not_found:chat" }));
    expect(await stored(other.chatIds[0]!)).toBe(1);
  });

  it("writes nothing for an unknown, expired or too old session, nor for a deleted account", async () => {
    const { userId } = await userWithChats(0);
    const { token } = await createSession(userId);
    const hash = hashSessionToken(token);
    const refusals: [string, Date][] = [
      [hashSessionToken("not-a-session"), new Date()],
      // Past the idle deadline and past the absolute lifetime, as seen from later instants.
      [hash, new Date(Date.now() + 400 * 86_400_000)],
    ];
    for (const [h, now] of refusals) {
      const chatId = randomUUID();
      const result = await saveSealedTurnForSession(h, now, turn(chatId));
      expect(result.session).toBeNull();
      expect(await stored(chatId)).toBe(0);
    }
    await t.db.user.update({ where: { id: userId }, data: { deletedAt: new Date() } });
    const chatId = randomUUID();
    const deleted = await saveSealedTurnForSession(hash, new Date(), turn(chatId));
    // The row comes back (the caller answers 403), the turn is not written.
    expect(deleted.session?.user.deletedAt).toBeInstanceOf(Date);
    expect(await stored(chatId)).toBe(0);
    expect(await t.db.chat.count({ where: { id: chatId } })).toBe(0);
  });

  it("checks the turn's shape before any SQL", async () => {
    await expect(saveSealedTurnForSession("x", new Date(), turn(randomUUID(), true, 1))).rejects.toMatchObject({ code: "bad_request:input" });
  });
});
