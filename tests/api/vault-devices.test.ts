import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as revoke, GET as list, POST as remember } from "@/app/api/vault/devices/route";
import { POST as unlock } from "@/app/api/vault/devices/unlock/route";
import { resetConfigForTests } from "../helpers/process-state";
import { fromBase64, generateDeviceKey, generateVaultKey, unwrapForDevice, wrapForDevice } from "@/lib/browser/vault/crypto";
import { MAX_REMEMBERED_DEVICES } from "@/lib/shared/vault/schemas";
import { captureLogsForTests } from "@/lib/server/log";
import { DEVICE_CHANGES_PER_NETWORK_PER_HOUR, DEVICE_CHANGES_PER_USER_PER_HOUR } from "@/lib/server/rate-limit";
import { getConfig } from "@/lib/server/config";
import { tableFilesHold } from "../db/setup-db";
import { fromPeer } from "../helpers/peer";
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

describe("remembering and revoking are limited, and their VACUUMs batched (docs/issues.md #43, finding 3)", () => {
  /** A request from client network `address` (the peer the server saw). */
  const from = (p: { cookie: string }, method: "POST" | "DELETE", body: unknown, address: string) =>
    (method === "POST" ? remember : revoke)(
      new Request(`${new URL(getConfig().APP_URL).origin}/api/vault/devices`, {
        method,
        headers: fromPeer(address, { Origin: new URL(getConfig().APP_URL).origin, Cookie: p.cookie, "Content-Type": "application/json" }),
        body: JSON.stringify(body),
      }),
    );

  it(`per user: ${DEVICE_CHANGES_PER_USER_PER_HOUR} changes an hour, remembering and revoking together, then 429 with Retry-After`, async () => {
    resetConfigForTests();
    const frank = await withVault((await createTestUser()).id);
    let changes = 0;
    while (changes < DEVICE_CHANGES_PER_USER_PER_HOUR) {
      const made = await from(frank, "POST", { name: "Firefox on Linux" }, "203.0.113.10");
      expect(made.status).toBe(201);
      changes++;
      if (changes === DEVICE_CHANGES_PER_USER_PER_HOUR) break;
      const { id } = (await made.json()) as { id: string };
      expect((await from(frank, "DELETE", { id }, "203.0.113.10")).status).toBe(200);
      changes++;
    }
    // From another network too: the limit is the account's.
    const refused = await from(frank, "POST", { name: "Firefox on Linux" }, "198.51.100.77");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: string }).error).toMatch(/^Too many changes to remembered devices\. Try again in \d+ minutes?\.$/);
    expect((await from(frank, "DELETE", { id: crypto.randomUUID() }, "198.51.100.77")).status).toBe(429);
  });

  it(`per client network: ${DEVICE_CHANGES_PER_NETWORK_PER_HOUR} changes an hour from all its accounts; other networks are not held back`, async () => {
    resetConfigForTests();
    const people = await Promise.all(Array.from({ length: Math.ceil(DEVICE_CHANGES_PER_NETWORK_PER_HOUR / 10) + 1 }, async () => withVault((await createTestUser()).id)));
    let sent = 0;
    for (const p of people) {
      for (let i = 0; i < 10 && sent < DEVICE_CHANGES_PER_NETWORK_PER_HOUR; i++, sent++) {
        expect((await from(p, "POST", { name: "Chrome on Linux" }, "2001:db8:43::1")).status).toBe(201);
      }
    }
    const last = people.at(-1)!;
    // Another address of the same /64 is the same network; the account's own count was given back.
    expect((await from(last, "POST", { name: "Chrome on Linux" }, "2001:db8:43::2")).status).toBe(429);
    expect((await from(last, "POST", { name: "Chrome on Linux" }, "2001:db8:44::1")).status).toBe(201);
    // Sixty-odd writes, each a transaction: past 30 s on a loaded 2-core machine.
  }, 120_000);

  it("revokes made together share one VACUUM pass, at most one a KEY_VACUUM_INTERVAL_SECONDS, each answered after its share left the files", async () => {
    // Long enough that the checks between two batches (a CHECKPOINT, a scan of the files) end inside it on a
    // loaded machine: at 3 s the last batch's first revoke found the interval over and ran a pass alone.
    process.env.KEY_VACUUM_INTERVAL_SECONDS = "10";
    resetConfigForTests();
    const logs = captureLogsForTests();
    try {
      const gina = await withVault((await createTestUser()).id);
      const devices: { id: string; secret: string }[] = [];
      for (let i = 0; i < 6; i++) devices.push((await (await create(gina, `Device ${i}`)).json()) as { id: string; secret: string });
      const passes = () => logs.records().filter((r) => r.msg === "key tables vacuumed").length;
      const revokeOne = async (d: { id: string; secret: string }) => {
        const res = await revoke(req("/api/vault/devices", { method: "DELETE", cookie: gina.cookie, body: { id: d.id } }));
        expect(res.status).toBe(200);
        await t.db.$executeRawUnsafe("CHECKPOINT");
        if (t.target.kind === "pglite") expect(tableFilesHold(t, Buffer.from(fromBase64(d.secret)))).toBe(false);
      };
      // A first revoke runs a pass at once; three more at the same time share the next one, which waits out
      // the interval.
      const started = Date.now();
      await revokeOne(devices[0]!);
      expect(passes()).toBe(1);
      await Promise.all(devices.slice(1, 4).map(revokeOne));
      expect(passes()).toBe(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
      // Two more after it: one pass for both again.
      await Promise.all(devices.slice(4).map(revokeOne));
      expect(passes()).toBe(3);
    } finally {
      logs.restore();
      process.env.KEY_VACUUM_INTERVAL_SECONDS = "0";
      resetConfigForTests();
    }
  }, 120_000);
});
