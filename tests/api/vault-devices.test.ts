import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as revoke, GET as list, POST as remember } from "@/app/api/vault/devices/route";
import { POST as unlock } from "@/app/api/vault/devices/unlock/route";
import { resetConfigForTests } from "@/lib/server/config";
import { fromBase64, generateDeviceKey, generateVaultKey, unwrapForDevice, wrapForDevice } from "@/lib/browser/vault/crypto";
import { MAX_REMEMBERED_DEVICES } from "@/lib/shared/vault/schemas";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { dumpDatabase } from "../helpers/db-dump";
import { req, withVault, type Person } from "../helpers/vault-api";

/**
 * Remembered devices (docs/issues.md #21): the server keeps one share per device and gives it back to its
 * owner only; revoking deletes it, and the device's wrap then opens nothing.
 */
let t: TestDb;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser()).id);
  bob = await withVault((await createTestUser()).id);
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

const create = (p: { cookie: string }, name = "Chrome on Linux") => remember(req("/api/vault/devices", { method: "POST", cookie: p.cookie, body: { name } }));
const share = (p: { cookie: string }, id: string) => unlock(req("/api/vault/devices/unlock", { method: "POST", cookie: p.cookie, body: { id } }));
const listed = async (p: { cookie: string }) => (await (await list(req("/api/vault/devices", { cookie: p.cookie }))).json()).devices as { id: string; name: string; last_used_at: string | null }[];

describe("/api/vault/devices", () => {
  it("remembers a device: a 32-byte share answered once, given back on unlock to its owner only, then revoked for good", async () => {
    const res = await create(alice);
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const { id, secret } = (await res.json()) as { id: string; secret: string };
    expect(fromBase64(secret)).toHaveLength(32);

    // The browser's side: a wrap under its own key and the share.
    const raw = generateVaultKey();
    const deviceKey = await generateDeviceKey();
    const wrapped = await wrapForDevice(raw, deviceKey, fromBase64(secret), { userId: alice.id, deviceId: id });

    // The list names it without the share; unlocking returns the same share and records the use.
    const before = await listed(alice);
    expect(before).toEqual([expect.objectContaining({ id, name: "Chrome on Linux", last_used_at: null })]);
    expect(JSON.stringify(before)).not.toContain(secret);
    const opened = await share(alice, id);
    expect(opened.status).toBe(200);
    const again = fromBase64(((await opened.json()) as { secret: string }).secret);
    expect(await unwrapForDevice(wrapped, deviceKey, again, { userId: alice.id, deviceId: id })).toEqual(raw);
    expect((await listed(alice))[0]!.last_used_at).not.toBeNull();

    // Bob can neither read, list nor revoke Alice's device: 404, as for an id nobody holds.
    expect((await share(bob, id)).status).toBe(404);
    expect((await share(bob, crypto.randomUUID())).status).toBe(404);
    expect(await listed(bob)).toEqual([]);
    expect((await revoke(req("/api/vault/devices", { method: "DELETE", cookie: bob.cookie, body: { id } }))).status).toBe(404);

    // Revoked: the share is gone from the database (after VACUUM FULL), unlock answers 404, and the wrap
    // cannot be opened with any share the server still gives out.
    const gone = await revoke(req("/api/vault/devices", { method: "DELETE", cookie: alice.cookie, body: { id } }));
    expect(gone.status).toBe(200);
    expect(((await gone.json()) as { devices: unknown[] }).devices).toEqual([]);
    expect((await share(alice, id)).status).toBe(404);
    const dump = await dumpDatabase(t.db);
    expect(dump).not.toContain(Buffer.from(again).toString("hex"));
    const other = (await (await create(alice, "Firefox on Windows")).json()) as { id: string; secret: string };
    await expect(unwrapForDevice(wrapped, deviceKey, fromBase64(other.secret), { userId: alice.id, deviceId: id })).rejects.toMatchObject({
      code: "unprocessable:vault_decrypt",
    });
    await revoke(req("/api/vault/devices", { method: "DELETE", cookie: alice.cookie, body: { id: other.id } }));
  });

  it("refuses without a session (401), without a vault (409), past the limit (400), and bad bodies (400)", async () => {
    expect((await create({ cookie: "" })).status).toBe(401);
    const carol = await createTestUser();
    const noVault = await create({ cookie: await sessionCookieFor(carol.id) });
    expect(noVault.status).toBe(409);
    expect((await noVault.json()).error).toBe("Turn on Save history first.");

    const dave = await withVault((await createTestUser()).id);
    for (let i = 0; i < MAX_REMEMBERED_DEVICES; i++) expect((await create(dave, `Device ${i}`)).status).toBe(201);
    const over = await create(dave);
    expect(over.status).toBe(400);
    expect((await over.json()).error).toBe(`At most ${MAX_REMEMBERED_DEVICES} remembered devices: revoke one in Settings first.`);

    for (const body of [{}, { name: "" }, { name: "x".repeat(81) }, { name: "ok", extra: 1 }]) {
      const res = await remember(req("/api/vault/devices", { method: "POST", cookie: dave.cookie, body }));
      expect(res.status).toBe(400);
      expect((await res.json()).error).toEqual(expect.any(String));
    }
    expect((await unlock(req("/api/vault/devices/unlock", { method: "POST", cookie: dave.cookie, body: { id: "not-a-uuid" } }))).status).toBe(400);
  });

  it("a wrap opens only with both shares, for its own user and device", async () => {
    const raw = generateVaultKey();
    const deviceKey = await generateDeviceKey();
    const serverShare = crypto.getRandomValues(new Uint8Array(32));
    const ctx = { userId: "u1", deviceId: "00000000-0000-4000-8000-000000000001" };
    const wrapped = await wrapForDevice(raw, deviceKey, serverShare, ctx);
    expect(await unwrapForDevice(wrapped, deviceKey, serverShare, ctx)).toEqual(raw);
    const otherKey = await generateDeviceKey();
    const refusals = [
      () => unwrapForDevice(wrapped, otherKey, serverShare, ctx),
      () => unwrapForDevice(wrapped, deviceKey, crypto.getRandomValues(new Uint8Array(32)), ctx),
      () => unwrapForDevice(wrapped, deviceKey, serverShare, { ...ctx, userId: "u2" }),
      () => unwrapForDevice(wrapped, deviceKey, serverShare, { ...ctx, deviceId: "00000000-0000-4000-8000-000000000002" }),
    ];
    for (const r of refusals) await expect(r()).rejects.toMatchObject({ code: "unprocessable:vault_decrypt" });
    // The device key cannot be exported, so script on the device can use it but not copy it.
    await expect(crypto.subtle.exportKey("raw", deviceKey)).rejects.toThrow();
  });

  it("deleting the vault's owner deletes their devices", async () => {
    const erin = await withVault((await createTestUser()).id);
    expect((await create(erin)).status).toBe(201);
    await t.db.user.delete({ where: { id: erin.id } });
    expect(await t.db.vaultDevice.count({ where: { userId: erin.id } })).toBe(0);
  });
});
