import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../helpers/process-state";
import { INTEGRITY_WARNING } from "@/lib/browser/vault/integrity";
import type { PlainMessage } from "@/lib/browser/vault/seal";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser } from "../helpers/auth";
import { check, listAll, remove, rename, save, unlock, vaultOf, type Device } from "../helpers/integrity-device";
import { withVault, type Person } from "../helpers/vault-api";

/**
 * docs/issues.md #21, tamper-evident history: the browser's integrity code (lib/browser/vault/integrity.ts and its
 * tracker) against the real route handlers and database. Each "device" is a tracker with its own
 * seen versions; the server's tampering is done straight in the database, as a server could.
 */
let t: TestDb;
let alice: Person;

const turn = (q: string, a: string): PlainMessage[] => [
  { role: "user", content: q },
  { role: "assistant", content: a },
];

/** A chat of two turns (4 messages, version 2), saved by `d`. */
async function chatOfTwoTurns(d: Device, p: Person, topic: string) {
  const first = await save(d, p, null, 0, turn(`${topic}?`, "First answer."));
  expect(first.status).toBe(200);
  expect((await save(d, p, first.id, 2, turn("And then?", "Second answer."))).status).toBe(200);
  return first.id;
}

const warning = expect.stringContaining(INTEGRITY_WARNING);

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser("integrity@example.com")).id);
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

describe("tamper-evident saved chats (docs/issues.md #21)", () => {
  it("an untouched history passes on the device that wrote it and on a new device", async () => {
    const d = await unlock(alice);
    expect(d.problem).toBeNull();
    const id = await chatOfTwoTurns(d, alice, "Untouched");
    expect(await rename(d, alice, id, "Renamed")).toBe(200);
    expect(await check(d, alice, id)).toBeNull();
    const fresh = await unlock(alice);
    expect(fresh.problem).toBeNull();
    expect(await check(fresh, alice, id)).toBeNull();
    const stored = await t.db.chat.findUniqueOrThrow({ where: { userId_id: { userId: alice.id, id } } });
    expect(stored.version).toBe(3);
    // The header and the manifest are ciphertext: no chat id or version in clear.
    expect(Buffer.from(stored.headerCiphertext!).toString("latin1")).not.toContain('"v"');
    const vault = await t.db.vault.findUniqueOrThrow({ where: { userId: alice.id } });
    expect(Buffer.from(vault.manifestCiphertext!).toString("latin1")).not.toContain(id);
  });

  it("a dropped message is detected", async () => {
    const d = await unlock(alice);
    const id = await chatOfTwoTurns(d, alice, "Drop");
    await t.db.message.deleteMany({ where: { userId: alice.id, chatId: id, position: 3 } });
    expect(await check(d, alice, id)).toEqual(expect.stringContaining("a message was removed, reordered or replaced"));
    // A new device, which never saw the chat, is warned too.
    expect(await check(await unlock(alice), alice, id)).toEqual(warning);
  });

  it("reordered messages are detected", async () => {
    const d = await unlock(alice);
    const id = await chatOfTwoTurns(d, alice, "Reorder");
    const move = (from: number, to: number) => t.db.message.updateMany({ where: { userId: alice.id, chatId: id, position: from }, data: { position: to } });
    await move(1, 100);
    await move(3, 1);
    await move(100, 3);
    expect(await check(d, alice, id)).toEqual(expect.stringContaining("removed, reordered or replaced"));
  });

  it("a message substituted by an older ciphertext of the same place is detected", async () => {
    const d = await unlock(alice);
    const id = await chatOfTwoTurns(d, alice, "Substitute");
    const old = await t.db.message.findFirstOrThrow({ where: { userId: alice.id, chatId: id, position: 3 } });
    // Regenerate the last answer (replace at 3), then the server puts the old answer back.
    expect((await save(d, alice, id, 3, [{ role: "assistant", content: "A better second answer." }], true)).status).toBe(200);
    expect(await check(d, alice, id)).toBeNull();
    await t.db.message.updateMany({ where: { userId: alice.id, chatId: id, position: 3 }, data: { contentCiphertext: old.contentCiphertext } });
    expect(await check(d, alice, id)).toEqual(expect.stringContaining("removed, reordered or replaced"));
    expect(await check(await unlock(alice), alice, id)).toEqual(warning);
  });

  it("a chat rolled back to an older consistent state is detected", async () => {
    const d = await unlock(alice);
    const first = await save(d, alice, null, 0, turn("Rollback?", "First answer."));
    const snapshot = await t.db.chat.findUniqueOrThrow({ where: { userId_id: { userId: alice.id, id: first.id } } });
    expect((await save(d, alice, first.id, 2, turn("And then?", "Second answer."))).status).toBe(200);
    // The server restores the chat as it was at version 1: header, version and messages together.
    await t.db.message.deleteMany({ where: { userId: alice.id, chatId: first.id, position: { gte: 2 } } });
    await t.db.chat.update({
      where: { userId_id: { userId: alice.id, id: first.id } },
      data: { headerCiphertext: snapshot.headerCiphertext, version: snapshot.version },
    });
    expect(await check(d, alice, first.id)).toEqual(expect.stringContaining("rolled back"));
    // A new device learns the chat's version from the manifest.
    const fresh = await unlock(alice);
    expect(fresh.problem).toEqual(expect.stringContaining("older than your list records"));
    expect(await check(fresh, alice, first.id)).toEqual(expect.stringContaining("rolled back"));
  });

  it("a manifest rolled back is detected by a device that saw the newer one", async () => {
    const d = await unlock(alice);
    const before = await t.db.vault.findUniqueOrThrow({ where: { userId: alice.id } });
    await chatOfTwoTurns(d, alice, "Manifest rollback");
    await t.db.vault.update({ where: { userId: alice.id }, data: { manifestCiphertext: before.manifestCiphertext, manifestVersion: before.manifestVersion } });
    expect(await d.tracker.adoptManifest((await vaultOf(alice)).manifest)).toEqual(expect.stringContaining("older than one this device has seen"));
    // The same old manifest under a version number the device has not seen does not authenticate.
    await t.db.vault.update({ where: { userId: alice.id }, data: { manifestVersion: d.tracker.manifestVersion } });
    expect(await d.tracker.adoptManifest((await vaultOf(alice)).manifest)).toEqual(expect.stringContaining("wrong version"));
    // Put it back for the other tests.
    await t.db.vault.update({ where: { userId: alice.id }, data: { manifestCiphertext: null, manifestVersion: 0 } });
  });

  it("a chat deleted by the server, not by the user, is detected; one the user deleted is not", async () => {
    await t.db.chat.deleteMany({ where: { userId: alice.id } });
    const d = await unlock(alice);
    const kept = await chatOfTwoTurns(d, alice, "Kept");
    const deleted = await chatOfTwoTurns(d, alice, "Deleted by the user");
    const taken = await chatOfTwoTurns(d, alice, "Taken by the server");
    expect(await remove(d, alice, deleted)).toBe(200);
    expect((await unlock(alice)).problem).toBeNull();
    await t.db.chat.deleteMany({ where: { userId: alice.id, id: taken } });
    const after = await unlock(alice);
    expect(after.problem).toEqual(expect.stringContaining("1 saved chat your list records is missing"));
    expect(await check(after, alice, kept)).toBeNull();
  });

  it("two devices writing at once raise no false alarm: each 409 is merged and written again", async () => {
    await t.db.chat.deleteMany({ where: { userId: alice.id } });
    await t.db.vault.update({ where: { userId: alice.id }, data: { manifestCiphertext: null, manifestVersion: 0 } });
    const a = await unlock(alice);
    const b = await unlock(alice);
    // A creates X; B, whose manifest is now stale, creates Y: 409, reads the manifest again, writes again.
    const x = await save(a, alice, null, 0, turn("Device A's chat", "Answer."));
    expect(x.status).toBe(200);
    const y = await save(b, alice, null, 0, turn("Device B's chat", "Answer."));
    expect([y.status, y.error]).toEqual([409, "Your history changed on another device meanwhile. Reload and try again."]);
    expect(await b.tracker.adoptManifest((await vaultOf(alice)).manifest)).toBeNull();
    const y2 = await save(b, alice, null, 0, turn("Device B's chat", "Answer."));
    expect(y2.status).toBe(200);
    // B renames A's chat (reading it first); A, which has not seen that, appends to it: 409 on the chat's version.
    expect(await check(b, alice, x.id)).toBeNull();
    expect(await rename(b, alice, x.id, "Named on B")).toBe(200);
    const append = await save(a, alice, x.id, 2, turn("More from A", "Answer."));
    expect(append.status).toBe(409);
    expect(await check(a, alice, x.id)).toBeNull();
    expect(await a.tracker.adoptManifest((await vaultOf(alice)).manifest)).toBeNull();
    expect((await save(a, alice, x.id, 2, turn("More from A", "Answer."))).status).toBe(200);
    // Then both devices, and a third, read everything: no warning anywhere.
    for (const d of [a, b]) {
      expect(await d.tracker.adoptManifest((await vaultOf(alice)).manifest)).toBeNull();
      expect(await d.tracker.adoptList(await listAll(alice))).toBeNull();
      for (const id of [x.id, y2.id]) expect(await check(d, alice, id)).toBeNull();
    }
    const c = await unlock(alice);
    expect(c.problem).toBeNull();
    for (const id of [x.id, y2.id]) expect(await check(c, alice, id)).toBeNull();
  });
});
