import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { GET as vaultGet } from "@/app/api/vault/route";
import { POST as rotationStartRoute } from "@/app/api/vault/rotation/route";
import { POST as rotationChatsRoute } from "@/app/api/vault/rotation/chats/route";
import { POST as rotationFinishRoute } from "@/app/api/vault/rotation/finish/route";
import type { VaultJson } from "@/lib/shared/api/contract";
import { resetConfigForTests } from "../helpers/process-state";
import { decryptField, fromBase64, generateVaultKey, importVaultKey, integrityKey, unwrapNextKey } from "@/lib/browser/vault/crypto";
import { completeRotation, draftRotation, resealChat, startRotation, type CurrentKey } from "@/lib/browser/vault/rotation";
import { openChat, sealTurn, unlockWithPassphrase, unlockWithRecovery, type StoredMethod } from "@/lib/browser/vault/seal";
import { setupTestDb, tableFilesHold, type TestDb } from "../db/setup-db";
import { apiOverRoutes } from "../helpers/api-over-routes";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { check, listAll, rename, save, unlock, vaultOf } from "../helpers/integrity-device";
import { req, type Person } from "../helpers/vault-api";
import { passphraseMethod, recoveryMethod } from "@/lib/browser/vault/seal";
import { POST as vaultCreate } from "@/app/api/vault/route";
import { POST as methodAdd } from "@/app/api/vault/methods/route";
import { toBase64, wrapNextKey } from "@/lib/browser/vault/crypto";

/**
 * docs/issues.md #21, "Rotate vault key": the browser's rotation code (lib/browser/vault/rotation.ts) through the real route
 * handlers and database. Afterwards every stored wrap is tried with every secret the user ever had: only
 * the new secrets open anything, and they open the new key; the old key opens no stored ciphertext.
 */
let t: TestDb;
const OLD_PASSPHRASE = "amber kettles hum beside lighthouses";
const NEW_PASSPHRASE = "violet ferries drift past granite harbours";

/** A user with a vault (passphrase and recovery code), as the browser sets it up; the old secrets are kept. */
async function newUser(email: string) {
  const { id } = await createTestUser(email);
  const cookie = await sessionCookieFor(id);
  const raw = generateVaultKey();
  const recovery = await recoveryMethod(raw, id);
  const methods = [await passphraseMethod(raw, id, OLD_PASSPHRASE), recovery.method];
  expect((await vaultCreate(req("/api/vault", { method: "POST", cookie, body: { methods } }))).status).toBe(201);
  const person: Person = { id, cookie, key: await importVaultKey(raw), raw };
  return { person, oldCode: recovery.code };
}

/** Three chats (one renamed), written with headers and manifest by one device. */
async function threeChats(p: Person) {
  const d = await unlock(p);
  const ids: string[] = [];
  for (const topic of ["Harbour tides", "Granite quarries", "Ferry timetables"]) {
    const saved = await save(d, p, null, 0, [
      { role: "user", content: `${topic}?` },
      { role: "assistant", content: `About ${topic}.`, attachment: null },
    ]);
    expect(saved.status).toBe(200);
    ids.push(saved.id);
  }
  expect(await rename(d, p, ids[0]!, "Renamed before the rotation")).toBe(200);
  return { device: d, ids };
}

const currentOf = async (p: Person, d: Awaited<ReturnType<typeof unlock>>): Promise<CurrentKey> => ({ userId: p.id, raw: p.raw, key: p.key, tracker: d.tracker });

/** Every ciphertext stored for the user: titles, trees, headers, messages, attachments, the manifest. */
async function storedCiphertexts(userId: string) {
  const chats = await t.db.chat.findMany({ where: { userId }, include: { messages: true } });
  return chats.flatMap((c) => [
    ...(c.titleCiphertext ? [{ ctx: { field: "title" as const, userId, chatId: c.id }, bytes: c.titleCiphertext }] : []),
    ...c.messages.map((m) => ({ ctx: { field: "content" as const, userId, chatId: c.id, position: m.position, role: m.role }, bytes: m.contentCiphertext })),
  ]);
}

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

describe("rotating the vault key (docs/issues.md #21)", () => {
  it("seals every chat again under a new key, keeps the list, and leaves no old wrap able to open anything", async () => {
    const { person: alice, oldCode } = await newUser("rotate@example.com");
    const { device, ids } = await threeChats(alice);
    await t.db.vaultDevice.create({ data: { userId: alice.id, name: "Chrome on Linux", secret: Buffer.alloc(32, 7) } });
    const before = await listAll(alice);
    const oldWraps = await t.db.vaultMethod.findMany({ where: { userId: alice.id } });
    const api = apiOverRoutes(alice);

    const draft = await draftRotation(alice.id, 1, generateVaultKey(), NEW_PASSPHRASE);
    await startRotation(api, await currentOf(alice, device), draft);
    const state = await completeRotation(api, await currentOf(alice, device), draft.next, 1);
    expect(state.key_generation).toBe(1);
    expect(state.rotation).toBeNull();

    // The list is the same, in the same order, with the same versions; every chat opens under the new key.
    expect(await listAll(alice)).toEqual(before);
    const newPerson: Person = { ...alice, raw: draft.next, key: await importVaultKey(draft.next) };
    const fresh = await unlock(newPerson, undefined, 1);
    expect(fresh.problem).toBeNull();
    for (const id of ids) expect(await check(fresh, newPerson, id)).toBeNull();
    // The device that rotated keeps its seen versions: no rollback alarm on the same versions.
    const sameDevice = await unlock(newPerson, device.seen, 1);
    expect(sameDevice.problem).toBeNull();
    for (const id of ids) expect(await check(sameDevice, newPerson, id)).toBeNull();

    // Every stored wrap, tried with every secret the user ever had: only the new ones open, and open the new key.
    const vault = (await (await vaultGet(req("/api/vault", { cookie: alice.cookie }))).json()) as VaultJson;
    const stored = (await t.db.vaultMethod.findMany({ where: { userId: alice.id } })).map(
      (m) => ({ id: m.id, kind: m.kind, label: m.label, wrapped_key: Buffer.from(m.wrappedKey).toString("base64"), kdf: m.kdf }) as StoredMethod,
    );
    expect(stored.map((m) => m.id).sort()).toEqual(vault.methods.map((m) => m.id).sort());
    await expect(unlockWithPassphrase(stored, alice.id, OLD_PASSPHRASE)).rejects.toThrow();
    await expect(unlockWithRecovery(stored, alice.id, oldCode)).rejects.toThrow();
    expect(Buffer.from((await unlockWithPassphrase(stored, alice.id, NEW_PASSPHRASE)).raw).equals(Buffer.from(draft.next))).toBe(true);
    expect(Buffer.from((await unlockWithRecovery(stored, alice.id, draft.code)).raw).equals(Buffer.from(draft.next))).toBe(true);
    // The old wraps are gone from the table (and, on PGlite, from its files after VACUUM FULL); copies kept
    // from before still open the old key, which opens none of the stored ciphertext.
    expect(await t.db.vaultMethod.count({ where: { id: { in: oldWraps.map((w) => w.id) } } })).toBe(0);
    expect(await t.db.vaultDevice.count({ where: { userId: alice.id } })).toBe(0);
    if (t.target.kind === "pglite") {
      await t.db.$executeRawUnsafe("CHECKPOINT");
      for (const w of oldWraps) expect(tableFilesHold(t, Buffer.from(w.wrappedKey))).toBe(false);
    }
    const oldCopies = oldWraps.map((m) => ({ id: m.id, kind: m.kind, label: m.label, wrapped_key: Buffer.from(m.wrappedKey).toString("base64"), kdf: m.kdf }) as StoredMethod);
    const oldRaw = (await unlockWithPassphrase(oldCopies, alice.id, OLD_PASSPHRASE)).raw;
    const oldKey = await importVaultKey(oldRaw);
    const ciphertexts = await storedCiphertexts(alice.id);
    expect(ciphertexts.length).toBeGreaterThan(6);
    for (const c of ciphertexts) await expect(decryptField(oldKey, c.ctx, c.bytes)).rejects.toThrow();
    const oldIntegrity = await integrityKey(oldRaw);
    const manifest = (await t.db.vault.findUniqueOrThrow({ where: { userId: alice.id } })).manifestCiphertext!;
    await expect(decryptField(oldIntegrity, { field: "manifest", userId: alice.id }, manifest)).rejects.toThrow();

    // A tab still holding the old key cannot write any more: 409, nothing stored under the old key.
    const stale = await save(device, alice, null, 0, [{ role: "user", content: "Written with the old key" }]);
    expect(stale.status).toBe(409);
    expect(await t.db.chat.count({ where: { userId: alice.id } })).toBe(3);
  });

  it("an interrupted rotation is finished by the next unlock, with the old secret", async () => {
    const { person: bob } = await newUser("interrupted@example.com");
    const { device, ids } = await threeChats(bob);
    const api = apiOverRoutes(bob);
    const draft = await draftRotation(bob.id, 1, generateVaultKey(), NEW_PASSPHRASE);
    await startRotation(api, await currentOf(bob, device), draft);
    // One chat is sealed again, then the tab closes.
    const first = await api("chatHistoryGet", { params: { chatId: ids[1]! } });
    const next = { key: await importVaultKey(draft.next), integrity: await integrityKey(draft.next) };
    const resealed = await resealChat(await currentOf(bob, device), next, first);
    expect((await rotationChatsRoute(req("/api/vault/rotation/chats", { method: "POST", cookie: bob.cookie, body: { generation: 1, chats: [resealed] } }))).status).toBe(200);
    expect((await api("vaultRotation")).remaining_chat_ids.sort()).toEqual([ids[0], ids[2]].sort());
    // Finishing now is refused: two chats are still under the old key.
    const early = await rotationFinishRoute(req("/api/vault/rotation/finish", { method: "POST", cookie: bob.cookie, body: { generation: 1, manifest: { ciphertext: resealed.header_ciphertext, base_version: 0 } } }));
    expect(early.status).toBe(409);

    // Later, on another device: the old passphrase still unlocks (the new methods wait), and the unlock finishes.
    const state = await vaultOf(bob);
    expect(state.rotation?.generation).toBe(1);
    const opened = await unlockWithPassphrase(state.methods, bob.id, OLD_PASSPHRASE);
    const nextRaw = await unwrapNextKey(fromBase64(state.rotation!.next_key), opened.raw, { userId: bob.id, generation: 1 });
    expect(Buffer.from(nextRaw).equals(Buffer.from(draft.next))).toBe(true);
    const other = await unlock(bob);
    await completeRotation(api, { userId: bob.id, raw: opened.raw, key: await importVaultKey(opened.raw), tracker: other.tracker }, nextRaw, 1);
    const after = await vaultOf(bob);
    expect([after.key_generation, after.rotation]).toEqual([1, null]);
    await expect(unlockWithPassphrase(after.methods, bob.id, OLD_PASSPHRASE)).rejects.toThrow();
    const newKey = await importVaultKey((await unlockWithPassphrase(after.methods, bob.id, NEW_PASSPHRASE)).raw);
    for (const id of ids) expect((await openChat(newKey, bob.id, await api("chatHistoryGet", { params: { chatId: id } }))).messages).toHaveLength(2);
  });

  it("refuses a second start, a wrong generation, passkeys, and reseals or finishes with no rotation under way", async () => {
    const { person: carol } = await newUser("refusals@example.com");
    const { device } = await threeChats(carol);
    const api = apiOverRoutes(carol);
    const post = (handler: typeof rotationStartRoute, path: string, body: unknown) => handler(req(path, { method: "POST", cookie: carol.cookie, body }));
    const draft = await draftRotation(carol.id, 2, generateVaultKey(), null);
    await expect(startRotation(api, await currentOf(carol, device), draft)).rejects.toMatchObject({ status: 409 });
    expect((await post(rotationChatsRoute, "/api/vault/rotation/chats", { generation: 1, chats: [] })).status).toBe(400);
    const chat = (await listAll(carol))[0]!;
    const sealedChat = await api("chatHistoryGet", { params: { chatId: chat.chat_id } });
    const next = generateVaultKey();
    const resealed = await resealChat(await currentOf(carol, device), { key: await importVaultKey(next), integrity: await integrityKey(next) }, sealedChat);
    expect((await post(rotationChatsRoute, "/api/vault/rotation/chats", { generation: 1, chats: [resealed] })).status).toBe(409);
    const good = await draftRotation(carol.id, 1, next, null);
    const passkeyLike = { ...good.methods[0]!, kind: "passkey" };
    expect((await post(rotationStartRoute, "/api/vault/rotation", { generation: 1, next_key: "AA==", methods: [passkeyLike] })).status).toBe(400);
    await startRotation(api, await currentOf(carol, device), good);
    await expect(startRotation(api, await currentOf(carol, device), good)).rejects.toMatchObject({ status: 409 });
    // A visitor is refused.
    expect((await rotationStartRoute(req("/api/vault/rotation", { method: "POST", body: { generation: 1, next_key: "AA==", methods: [] } }))).status).toBe(401);
    // chat_save with the old key generation during the rotation still works (the chat is resealed later)...
    const during = await sealTurn({ key: carol.key, userId: carol.id, chatId: crypto.randomUUID(), create: true, firstPosition: 0, messages: [{ role: "user", content: "Meanwhile" }], title: "Meanwhile" });
    expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: carol.cookie, body: during }))).status).toBe(200);
    // ...and the rotation picks it up before finishing.
    await completeRotation(api, await currentOf(carol, device), next, 1);
    expect((await vaultOf(carol)).key_generation).toBe(1);
    expect(await t.db.chat.count({ where: { userId: carol.id, keyGeneration: 0 } })).toBe(0);
  });
});

describe("method ids are per user (docs/issues.md #43, finding 1)", () => {
  it("another account's method id is a free id to the rotation and to a new method; one's own is a 400, never a 500", async () => {
    const { person: owner } = await newUser("ids-owner@example.com");
    const { person: other } = await newUser("ids-other@example.com");
    const ownersIds = (await t.db.vaultMethod.findMany({ where: { userId: owner.id } })).map((m) => m.id);
    const othersIds = (await t.db.vaultMethod.findMany({ where: { userId: other.id } })).map((m) => m.id);
    const recoveryWithId = async (id: string) => ({ ...(await recoveryMethod(other.raw, other.id)).method, id });
    const add = async (id: string) => methodAdd(req("/api/vault/methods", { method: "POST", cookie: other.cookie, body: { method: await recoveryWithId(id) } }));

    // A new method: the owner's id answers exactly as a fresh one (201); the caller's own id is a 400.
    const fresh = await add(crypto.randomUUID());
    const taken = await add(ownersIds[0]!);
    expect([fresh.status, taken.status]).toEqual([201, 201]);
    const own = await add(othersIds[0]!);
    expect(own.status).toBe(400);
    expect(await own.json()).toEqual({ error: "That unlock method is already registered." });

    // A rotation's methods: the owner's id is free; one of the caller's current methods' ids is a 400.
    const start = async (ids: string[]) => {
      const next = generateVaultKey();
      const draft = await draftRotation(other.id, 1, next, null);
      const methods = draft.methods.map((m, i) => ({ ...m, id: ids[i] ?? m.id }));
      const nextKey = toBase64(await wrapNextKey(next, other.raw, { userId: other.id, generation: 1 }));
      return rotationStartRoute(req("/api/vault/rotation", { method: "POST", cookie: other.cookie, body: { generation: 1, next_key: nextKey, methods } }));
    };
    const clash = await start([othersIds[1]!]);
    expect(clash.status).toBe(400);
    expect(await clash.json()).toEqual({ error: "That unlock method is already registered." });
    expect((await start([ownersIds[1]!])).status).toBe(201);
    // The owner's methods are untouched.
    expect((await t.db.vaultMethod.findMany({ where: { userId: owner.id } })).map((m) => m.id).sort()).toEqual([...ownersIds].sort());
  });
});
