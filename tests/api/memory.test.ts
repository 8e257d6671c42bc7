import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as memoryGet, POST as memoryPut } from "@/app/api/memory/route";
import { POST as deleteUser } from "@/app/api/delete_user/route";
import { resetConfigForTests } from "../helpers/process-state";
import { EMPTY_MEMORY, loadMemory, newFact, openMemory, saveMemory, sealMemory, type MemorySeen } from "@/lib/browser/vault/memory";
import { encryptField, generateVaultKey, importVaultKey, toBase64 } from "@/lib/browser/vault/crypto";
import { completeRotation, draftRotation, startRotation } from "@/lib/browser/vault/rotation";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { dumpDatabase } from "../helpers/db-dump";
import { req, withVault, type Person } from "../helpers/vault-api";
import { apiOverRoutes } from "../helpers/api-over-routes";
import { unlock } from "../helpers/integrity-device";

/**
 * Memory (docs/issues.md #41) through the real handlers and database. The test plays the browser: it holds the
 * vault key, seals the list with lib/browser/vault/memory.ts and opens what comes back.
 */
let t: TestDb;
let alice: Person;
let bob: Person;

const put = (p: { cookie: string } | null, body: unknown, extra: { origin?: string; raw?: string } = {}) =>
  memoryPut(req("/api/memory", { method: "POST", cookie: p?.cookie, body, ...extra }));
const get = async (p: Person) => (await memoryGet(req("/api/memory", { cookie: p.cookie }))).json() as Promise<{ sealed: string | null; version: number; updated_at: string | null }>;

/** A device's seen-version store held in memory. */
function memorySeen(): MemorySeen {
  const seen = new Map<string, number>();
  return { get: (u) => seen.get(u) ?? 0, set: (u, v) => void seen.set(u, v) };
}

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser("alice-memory@example.com")).id);
  bob = await withVault((await createTestUser("bob-memory@example.com")).id);
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

describe("/api/memory", () => {
  it("stores the list sealed, opens it back, and keeps no fact in readable form", async () => {
    const canary = `memory-canary-${crypto.randomUUID()}`;
    const api = apiOverRoutes(alice);
    const seen = memorySeen();
    const empty = await loadMemory(api, alice.key, alice.id, seen);
    expect(empty).toEqual({ list: EMPTY_MEMORY, warning: null });
    const stored = await saveMemory(api, alice.key, alice.id, empty.list, { enabled: true, facts: [newFact(`I live in Dunedin ${canary}`)] }, seen);
    expect(stored.version).toBe(1);
    const loaded = await loadMemory(api, alice.key, alice.id, seen);
    expect(loaded.warning).toBeNull();
    expect(loaded.list.facts.map((f) => f.text)).toEqual([`I live in Dunedin ${canary}`]);

    const dump = await dumpDatabase(t.db);
    for (const form of [canary, Buffer.from(canary).toString("base64"), Buffer.from(canary).toString("hex")]) expect(dump).not.toContain(form);
    const answer = JSON.stringify(await get(alice));
    expect(answer).not.toContain(canary);
    const row = await t.db.memory.findUniqueOrThrow({ where: { userId: alice.id } });
    expect(row.sealed[0]).toBe(3);
    expect(row.updatedAt.getUTCSeconds()).toBe(0);
    // Bob sees none of it, and Alice's ciphertext does not open as Bob's.
    expect(await get(bob)).toEqual({ sealed: null, version: 0, updated_at: null });
    await expect(openMemory(bob.key, bob.id, (await get(alice)).sealed!)).rejects.toThrow();
  });

  it("compare-and-set: a write from a stale version is refused (409) and changes nothing", async () => {
    const carol = await withVault((await createTestUser("carol-memory@example.com")).id);
    const api = apiOverRoutes(carol);
    const seen = memorySeen();
    const first = await saveMemory(api, carol.key, carol.id, EMPTY_MEMORY, { enabled: true, facts: [newFact("one")] }, seen);
    await saveMemory(api, carol.key, carol.id, first, { enabled: false, facts: [newFact("two")] }, seen);
    const stale = await put(carol, { sealed: await sealMemory(carol.key, carol.id, { version: 2, enabled: true, facts: [] }), version: 2, base_version: 1 });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({ error: "Your memories changed on another device meanwhile. Reload and try again." });
    const again = await put(carol, { sealed: await sealMemory(carol.key, carol.id, { version: 1, enabled: true, facts: [] }), version: 1, base_version: 0 });
    expect(again.status).toBe(409);
    const { list } = await loadMemory(api, carol.key, carol.id, seen);
    expect(list).toMatchObject({ version: 2, enabled: false, facts: [{ text: "two" }] });
  });

  it("warns when the server rolls the list back or mislabels its version", async () => {
    const dan = await withVault((await createTestUser("dan-memory@example.com")).id);
    const api = apiOverRoutes(dan);
    const seen = memorySeen();
    const v1 = await saveMemory(api, dan.key, dan.id, EMPTY_MEMORY, { enabled: true, facts: [newFact("old")] }, seen);
    const oldRow = await t.db.memory.findUniqueOrThrow({ where: { userId: dan.id } });
    await saveMemory(api, dan.key, dan.id, v1, { enabled: true, facts: [newFact("new")] }, seen);
    // The server puts the older ciphertext back, with its own version: this device saw version 2.
    await t.db.memory.update({ where: { userId: dan.id }, data: { sealed: oldRow.sealed, version: 1 } });
    expect((await loadMemory(api, dan.key, dan.id, seen)).warning).toMatch(/^Integrity warning: .*rolled back/);
    // ... or with a version it made up.
    await t.db.memory.update({ where: { userId: dan.id }, data: { version: 2 } });
    expect((await loadMemory(api, dan.key, dan.id, seen)).warning).toMatch(/^Integrity warning: .*do not match/);
  });

  it("is strict: unknown fields, non-ciphertext, bad versions (400); too large (413); visitors (401); another origin (403); no vault (409)", async () => {
    const sealed = await sealMemory(alice.key, alice.id, { version: 9, enabled: true, facts: [] });
    const base = (await get(alice)).version;
    for (const body of [
      { sealed, version: base + 1, base_version: base, extra: 1 },
      { sealed: "not base64!", version: base + 1, base_version: base },
      { sealed: Buffer.from("plain text, not a vault ciphertext").toString("base64"), version: base + 1, base_version: base },
      { sealed, version: base + 2, base_version: base },
      { sealed, version: 0, base_version: -1 },
      { sealed },
    ]) {
      const res = await put(alice, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
    const tooBig = toBase64(await encryptField(alice.key, { field: "memory", userId: alice.id }, "x".repeat(800_000)));
    expect((await put(alice, { sealed: tooBig, version: base + 1, base_version: base })).status).toBe(413);
    expect((await memoryGet(req("/api/memory", {}))).status).toBe(401);
    expect((await put(null, { sealed, version: 1, base_version: 0 })).status).toBe(401);
    expect((await put(alice, { sealed, version: base + 1, base_version: base }, { origin: "https://evil.example" })).status).toBe(403);
    const eve = await createTestUser("eve-memory@example.com");
    const noVault = await put({ cookie: await sessionCookieFor(eve.id) }, { sealed, version: 1, base_version: 0 });
    expect(noVault.status).toBe(409);
    expect(await t.db.memory.count({ where: { userId: eve.id } })).toBe(0);
  });

  it("a key rotation seals the memories again under the new key; account deletion deletes them", async () => {
    const frank = await withVault((await createTestUser("frank-memory@example.com")).id);
    const api = apiOverRoutes(frank);
    await saveMemory(api, frank.key, frank.id, EMPTY_MEMORY, { enabled: true, facts: [newFact("Prefers metric units")] }, memorySeen());
    const device = await unlock(frank);
    const current = { userId: frank.id, raw: frank.raw, key: frank.key, tracker: device.tracker };
    const draft = await draftRotation(frank.id, 1, generateVaultKey(), null);
    await startRotation(api, current, draft);
    await completeRotation(api, current, draft.next, 1);
    const state = await get(frank);
    expect((await openMemory(await importVaultKey(draft.next), frank.id, state.sealed!)).facts.map((f) => f.text)).toEqual(["Prefers metric units"]);
    await expect(openMemory(frank.key, frank.id, state.sealed!)).rejects.toThrow();

    expect((await deleteUser(req("/api/delete_user", { method: "POST", cookie: frank.cookie, body: {} }))).status).toBe(200);
    expect(await t.db.memory.count({ where: { userId: frank.id } })).toBe(0);
  });
});
