import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DecryptionError, masterKeyId, UnknownMasterKeyError } from "@/lib/crypto";
import { closeDb, getDb } from "@/lib/db/client";
import {
  appendMessages,
  createChat,
  ensureDataKey,
  getChat,
  listChats,
  rotateDataKeys,
  shredUserData,
  UserUnavailableError,
} from "@/lib/db/queries";
import { createUser, randomMasterKey, setupTestDb, useMasterKeys, type TestDb } from "./setup-db";

let t: TestDb;
beforeAll(async () => {
  t = await setupTestDb();
});
afterAll(async () => {
  await t?.cleanup();
});

interface MessageRow {
  id: string;
  position: number;
  role: string;
  content_ciphertext: Uint8Array;
  attachment_ciphertext: Uint8Array | null;
}

async function messageRows(chatId: string): Promise<MessageRow[]> {
  return t.db.$queryRaw<MessageRow[]>`
    SELECT id::text, position, role, content_ciphertext, attachment_ciphertext
    FROM messages WHERE chat_id = ${chatId}::uuid ORDER BY position`;
}

/** Run `change`, expect reading the chat to fail authentication, then put things back. */
async function expectTamperDetected(
  read: () => Promise<unknown>,
  change: () => Promise<unknown>,
  undo: () => Promise<unknown>,
): Promise<void> {
  await read();
  await change();
  try {
    await expect(read()).rejects.toBeInstanceOf(DecryptionError);
  } finally {
    await undo();
  }
  await read();
}

describe("ciphertexts are bound to their place", () => {
  let alice: string;
  let bob: string;
  let chatA: string;
  let chatB: string;
  let bobChat: string;

  beforeAll(async () => {
    alice = await createUser(t.db);
    bob = await createUser(t.db);
    chatA = (
      await createChat({
        userId: alice,
        title: "A",
        messages: [
          { role: "user", content: "question", attachment: { name: "a.pdf", text: "pdf text" } },
          { role: "assistant", content: "answer" },
        ],
      })
    ).chatId;
    chatB = (await createChat({ userId: alice, title: "B", messages: [{ role: "user", content: "other" }] })).chatId;
    bobChat = (await createChat({ userId: bob, title: "bob", messages: [{ role: "user", content: "bob's" }] }))
      .chatId;
  });

  const readA = () => getChat({ userId: alice, chatId: chatA });

  it("rejects a message body moved to another position and role", async () => {
    const [m0, m1] = await messageRows(chatA);
    await expectTamperDetected(
      readA,
      () => t.db.$executeRaw`UPDATE messages SET content_ciphertext = ${m1!.content_ciphertext} WHERE id = ${m0!.id}::uuid`,
      () => t.db.$executeRaw`UPDATE messages SET content_ciphertext = ${m0!.content_ciphertext} WHERE id = ${m0!.id}::uuid`,
    );
  });

  it("rejects a changed role", async () => {
    const [m0] = await messageRows(chatA);
    await expectTamperDetected(
      readA,
      () => t.db.$executeRaw`UPDATE messages SET role = 'system' WHERE id = ${m0!.id}::uuid`,
      () => t.db.$executeRaw`UPDATE messages SET role = 'user' WHERE id = ${m0!.id}::uuid`,
    );
  });

  it("rejects swapped positions", async () => {
    const [m0, m1] = await messageRows(chatA);
    // Same role at both ends, so only the position differs: give m1 the user role too.
    await t.db.$executeRaw`UPDATE messages SET role = 'user' WHERE id = ${m1!.id}::uuid`;
    const bump = (id: string, pos: number) => t.db.$executeRaw`UPDATE messages SET position = ${pos} WHERE id = ${id}::uuid`;
    // Via a free position, as (chat_id, position) is unique.
    const place = async (first: MessageRow, firstAt: number, second: MessageRow, secondAt: number) => {
      await bump(first.id, 99);
      await bump(second.id, secondAt);
      await bump(first.id, firstAt);
    };
    try {
      await expect(readA()).rejects.toBeInstanceOf(DecryptionError); // m1 was sealed as assistant
      await t.db.$executeRaw`UPDATE messages SET role = 'assistant' WHERE id = ${m1!.id}::uuid`;
      await expectTamperDetected(readA, () => place(m0!, 1, m1!, 0), () => place(m0!, 0, m1!, 1));
    } finally {
      await t.db.$executeRaw`UPDATE messages SET role = 'assistant' WHERE id = ${m1!.id}::uuid`;
    }
  });

  it("rejects an attachment moved into the content field", async () => {
    const [m0] = await messageRows(chatA);
    await expectTamperDetected(
      readA,
      () => t.db.$executeRaw`UPDATE messages SET content_ciphertext = attachment_ciphertext WHERE id = ${m0!.id}::uuid`,
      () => t.db.$executeRaw`UPDATE messages SET content_ciphertext = ${m0!.content_ciphertext} WHERE id = ${m0!.id}::uuid`,
    );
  });

  it("rejects a message moved to another chat of the same user", async () => {
    const [m0] = await messageRows(chatA);
    const [b0] = await messageRows(chatB);
    const readB = () => getChat({ userId: alice, chatId: chatB });
    await expectTamperDetected(
      readB,
      () => t.db.$executeRaw`UPDATE messages SET content_ciphertext = ${m0!.content_ciphertext} WHERE id = ${b0!.id}::uuid`,
      () => t.db.$executeRaw`UPDATE messages SET content_ciphertext = ${b0!.content_ciphertext} WHERE id = ${b0!.id}::uuid`,
    );
  });

  it("rejects a title moved to another chat", async () => {
    const [row] = await t.db.$queryRaw<{ title_ciphertext: Uint8Array }[]>`
      SELECT title_ciphertext FROM chats WHERE id = ${chatB}::uuid`;
    await expectTamperDetected(
      () => listChats({ userId: alice, limit: 10 }),
      () => t.db.$executeRaw`UPDATE chats SET title_ciphertext = (SELECT title_ciphertext FROM chats WHERE id = ${chatA}::uuid) WHERE id = ${chatB}::uuid`,
      () => t.db.$executeRaw`UPDATE chats SET title_ciphertext = ${row!.title_ciphertext} WHERE id = ${chatB}::uuid`,
    );
  });

  it("rejects a chat moved to another user", async () => {
    await t.db.$executeRaw`UPDATE chats SET user_id = ${bob} WHERE id = ${chatA}::uuid`;
    try {
      // Bob can now find alice's chat, but not read it.
      await expect(getChat({ userId: bob, chatId: chatA })).rejects.toBeInstanceOf(DecryptionError);
      await expect(listChats({ userId: bob, limit: 10 })).rejects.toBeInstanceOf(DecryptionError);
    } finally {
      await t.db.$executeRaw`UPDATE chats SET user_id = ${alice} WHERE id = ${chatA}::uuid`;
    }
    await readA();
  });

  it("rejects a data key copied to another user, even with that user's ciphertext", async () => {
    const bobKey = await t.db.dataKey.findUniqueOrThrow({ where: { userId: bob } });
    await expectTamperDetected(
      () => getChat({ userId: bob, chatId: bobChat }),
      () =>
        t.db.$executeRaw`UPDATE data_keys SET wrapped_key = (SELECT wrapped_key FROM data_keys WHERE user_id = ${alice}) WHERE user_id = ${bob}`,
      () => t.db.dataKey.update({ where: { userId: bob }, data: { wrappedKey: bobKey.wrappedKey } }),
    );
  });

  it("rejects a flipped ciphertext byte", async () => {
    const [m0] = await messageRows(chatA);
    const altered = Buffer.from(m0!.content_ciphertext);
    altered[altered.length - 20]! ^= 0x01;
    await expectTamperDetected(
      readA,
      () => t.db.$executeRaw`UPDATE messages SET content_ciphertext = ${new Uint8Array(altered)} WHERE id = ${m0!.id}::uuid`,
      () => t.db.$executeRaw`UPDATE messages SET content_ciphertext = ${m0!.content_ciphertext} WHERE id = ${m0!.id}::uuid`,
    );
  });
});

describe("shredUserData", () => {
  it("deletes the data key and every chat in one go, leaving copies undecryptable", async () => {
    const userId = await createUser(t.db);
    const bystander = await createUser(t.db);
    const { chatId } = await createChat({
      userId,
      title: "secret",
      messages: [{ role: "user", content: "private", attachment: { name: "x.pdf", text: "doc" } }],
    });
    await appendMessages({ userId, chatId, messages: [{ role: "assistant", content: "reply" }] });
    await createChat({ userId, messages: [{ role: "user", content: "second" }] });
    const kept = await createChat({ userId: bystander, title: "kept", messages: [{ role: "user", content: "hi" }] });

    // What an attacker (or a stale replica) may have copied beforehand.
    const chatCopy = await t.db.chat.findUniqueOrThrow({ where: { id: chatId } });
    const messageCopies = await t.db.message.findMany({ where: { chatId } });

    expect(await shredUserData(userId)).toEqual({ chatsDeleted: 2 });

    expect(await t.db.dataKey.count({ where: { userId } })).toBe(0);
    expect(await t.db.chat.count({ where: { userId } })).toBe(0);
    expect(await t.db.message.count({ where: { chatId } })).toBe(0);
    const user = await t.db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.deletedAt).toBeInstanceOf(Date);
    // The bystander is untouched.
    expect((await getChat({ userId: bystander, chatId: kept.chatId })).title).toBe("kept");

    // A deleted account gets no new key and cannot save chats.
    await expect(ensureDataKey(userId)).rejects.toMatchObject({ name: "UserUnavailableError", reason: "deleted" });
    await expect(createChat({ userId, messages: [{ role: "user", content: "x" }] })).rejects.toBeInstanceOf(
      UserUnavailableError,
    );

    // Restore the copied rows: without the data key they cannot be read...
    await t.db.chat.create({ data: chatCopy });
    await t.db.message.createMany({ data: messageCopies });
    await expect(getChat({ userId, chatId })).rejects.toBeInstanceOf(DecryptionError);
    await expect(listChats({ userId, limit: 10 })).rejects.toBeInstanceOf(DecryptionError);
    // ...nor with a new data key, should one ever be made for the user again.
    await t.db.user.update({ where: { id: userId }, data: { deletedAt: null } });
    await ensureDataKey(userId);
    await expect(getChat({ userId, chatId })).rejects.toBeInstanceOf(DecryptionError);

    // Idempotent, and deletedAt keeps its first value.
    await shredUserData(userId);
    const again = await shredUserData(userId);
    expect(again).toEqual({ chatsDeleted: 0 });
  });
});

describe("master key rotation", () => {
  it("re-wraps every data key; data then decrypts under the new key only", async () => {
    const oldKey = t.masterKey;
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(t.db)));
    const chats = [];
    for (const userId of users) {
      chats.push({
        userId,
        chatId: (await createChat({ userId, title: `t-${userId}`, messages: [{ role: "user", content: userId }] })).chatId,
      });
    }
    const before = await t.db.dataKey.count();
    expect(before).toBeGreaterThanOrEqual(5);

    const newKey = randomMasterKey();
    useMasterKeys(newKey, oldKey);
    // Before the rotation runs, the app still reads everything through the previous key.
    expect((await getChat(chats[0]!)).messages[0]!.content).toBe(chats[0]!.userId);

    const batches: number[] = [];
    const result = await rotateDataKeys({ batchSize: 2, onBatch: (p) => batches.push(p.rewrapped) });
    expect(result).toEqual({ rewrapped: before, current: before, unavailable: 0 });
    expect(batches.length).toBe(Math.ceil(before / 2));
    expect(await rotateDataKeys({ batchSize: 2 })).toEqual({ rewrapped: 0, current: before, unavailable: 0 });

    // The new key alone reads everything.
    useMasterKeys(newKey);
    for (const c of chats) {
      const chat = await getChat(c);
      expect(chat.title).toBe(`t-${c.userId}`);
      expect(chat.messages[0]!.content).toBe(c.userId);
    }
    // The old key alone reads nothing.
    useMasterKeys(oldKey);
    await expect(getChat(chats[0]!)).rejects.toBeInstanceOf(UnknownMasterKeyError);
    useMasterKeys(newKey);
  });

  it("npm run keys:rotate re-wraps, reports, and leaves unknown keys alone", async () => {
    const idOf = (key: string) => masterKeyId(Buffer.from(key, "base64"));
    const current = randomMasterKey();
    useMasterKeys(current);
    const rotated = await createUser(t.db);
    const { chatId } = await createChat({ userId: rotated, title: "x", messages: [{ role: "user", content: "y" }] });
    const stranger = randomMasterKey();
    useMasterKeys(stranger);
    const orphan = await createUser(t.db);
    await ensureDataKey(orphan);
    const underCurrent = await t.db.dataKey.count({ where: { masterKeyId: idOf(current) } });
    const total = await t.db.dataKey.count();
    expect(underCurrent).toBeGreaterThanOrEqual(1);

    // PGlite allows one process: hand the database to the script, then take it back.
    await closeDb();
    const next = randomMasterKey();
    const env = { ...t.childEnv(), ENCRYPTION_MASTER_KEY: next, ENCRYPTION_MASTER_KEY_PREVIOUS: current };
    const outcome = await promisify(execFile)("npm", ["run", "--silent", "keys:rotate"], { env }).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
    );
    expect(outcome.stdout).toContain(
      `Done: re-wrapped ${underCurrent}; under the current key ${underCurrent}; not re-wrapped ${total - underCurrent} `,
    );
    expect(outcome.code).toBe(1);

    useMasterKeys(next);
    t.db = await getDb();
    expect((await getChat({ userId: rotated, chatId })).messages[0]!.content).toBe("y");
    const orphanKey = await t.db.dataKey.findUniqueOrThrow({ where: { userId: orphan } });
    expect(orphanKey.masterKeyId).toBe(idOf(stranger));
  });
});

describe("a failing statement (issue 12: PGlite in its worker)", () => {
  it("leaves the database usable for the very next statement", async () => {
    // node-postgres ends a client whose query failed and connects again at once; the embedded
    // server must take that connection (lib/db/pglite-server.mjs), or the next request fails.
    for (let i = 0; i < 3; i++) {
      await expect(t.db.$queryRaw`SELECT 1 / ${0}::int AS x`).rejects.toThrow();
      const [row] = await t.db.$queryRaw<{ ok: number }[]>`SELECT ${i}::int AS ok`;
      expect(row!.ok).toBe(i);
    }
  });
});
