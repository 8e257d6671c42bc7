import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as vaultGet, POST as vaultCreate } from "@/app/api/vault/route";
import { PATCH as methodReplace, POST as methodAdd } from "@/app/api/vault/methods/route";
import { POST as vaultUnlock } from "@/app/api/vault/unlock/route";
import type { VaultJson } from "@/lib/shared/api/contract";
import { ARGON2ID, ARGON2ID_FLOOR, generateVaultKey, passphraseKey, randomBytes, toBase64, wrapVaultKey, type Argon2Params } from "@/lib/browser/vault/crypto";
import { passphraseMethod, recoveryMethod, unlockWithPassphrase, type MethodJson } from "@/lib/browser/vault/seal";
import { setupTestDb, type TestDb, tableFilesHold } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { req } from "../helpers/vault-api";

/**
 * docs/issues.md #21, "Passphrase strength", on the server and at unlock: the server's Argon2id floor for passphrase
 * wraps (m ≥ 64 MiB, t ≥ 3; 400 naming it on every write of a method: POST /api/vault, POST and PATCH
 * /api/vault/methods), old weaker wraps still served, and the browser's store (lib/browser/vault/unlock.ts, with
 * its calls routed to the real handlers) wrapping the key again at the next unlock.
 */
let t: TestDb;

beforeAll(async () => {
  t = await setupTestDb();
});

afterAll(async () => {
  await t.cleanup();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Argon2id as Hush used it before docs/issues.md #21 (OWASP's first option), and one pass short of the floor. */
const OLD: Argon2Params = { memoryKiB: 47104, iterations: 1, parallelism: 1 };
const PASSPHRASE = "violet lanterns drift over quiet harbours";

/** A passphrase method claiming `argon2` (the wrap itself is not looked into by the server). */
async function withParams(raw: Uint8Array<ArrayBuffer>, userId: string, argon2: Argon2Params): Promise<MethodJson> {
  const id = crypto.randomUUID();
  const salt = randomBytes(16);
  const wrapped = await wrapVaultKey(raw, await passphraseKey(PASSPHRASE, salt, argon2), { userId, kind: "passphrase", methodId: id });
  return { id, kind: "passphrase", label: null, wrapped_key: toBase64(wrapped), kdf: { salt: toBase64(salt), argon2 } };
}

async function newUser() {
  const user = await createTestUser();
  return { id: user.id, cookie: await sessionCookieFor(user.id) };
}

const state = async (cookie: string) => (await (await vaultGet(req("/api/vault", { cookie }))).json()) as VaultJson;

describe("the server's Argon2id floor for passphrase wraps", () => {
  it("refuses a wrap below 64 MiB or 3 passes with 400 naming the floor, on create, add and replace; accepts one at the floor", async () => {
    const u = await newUser();
    const raw = generateVaultKey();
    const recovery = (await recoveryMethod(raw, u.id)).method;
    const weakCases: [Argon2Params, RegExp][] = [
      [OLD, /memory below the server's floor/],
      [{ memoryKiB: 65536, iterations: 2, parallelism: 4 }, /passes below the server's floor/],
      [{ memoryKiB: 65535, iterations: 3, parallelism: 4 }, /memory below the server's floor/],
    ];
    const floorText = "Argon2id memory at least 65536 KiB (64 MiB) and at least 3 passes";
    for (const [argon2, what] of weakCases) {
      const weak = { ...(await passphraseMethod(raw, u.id, PASSPHRASE)), kdf: { salt: toBase64(randomBytes(16)), argon2 } };
      const res = await vaultCreate(req("/api/vault", { method: "POST", cookie: u.cookie, body: { methods: [weak, recovery] } }));
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: string };
      expect(error).toMatch(what);
      expect(error).toContain(floorText);
    }
    expect((await state(u.cookie)).exists).toBe(false);

    // At the floor (today's parameters): stored.
    const good = await passphraseMethod(raw, u.id, PASSPHRASE);
    expect(good.kdf.argon2).toEqual(ARGON2ID);
    expect(ARGON2ID.memoryKiB).toBeGreaterThanOrEqual(ARGON2ID_FLOOR.memoryKiB);
    expect((await vaultCreate(req("/api/vault", { method: "POST", cookie: u.cookie, body: { methods: [good, recovery] } }))).status).toBe(201);

    // Adding or replacing with a weak wrap: 400, nothing changed.
    const weak = await withParams(raw, u.id, OLD);
    const added = await methodAdd(req("/api/vault/methods", { method: "POST", cookie: u.cookie, body: { method: weak } }));
    expect(added.status).toBe(400);
    expect(((await added.json()) as { error: string }).error).toContain(floorText);
    const replaced = await methodReplace(req("/api/vault/methods", { method: "PATCH", cookie: u.cookie, body: { replaces: good.id, method: weak } }));
    expect(replaced.status).toBe(400);
    expect(((await replaced.json()) as { error: string }).error).toContain(floorText);
    expect((await state(u.cookie)).methods.map((m) => m.id).sort()).toEqual([good.id, recovery.id].sort());
  });

  it("PATCH /api/vault/methods replaces only the caller's method, and only by one of the same kind", async () => {
    const u = await newUser();
    const other = await newUser();
    const raw = generateVaultKey();
    const pass = await passphraseMethod(raw, u.id, PASSPHRASE);
    const recovery = (await recoveryMethod(raw, u.id)).method;
    expect((await vaultCreate(req("/api/vault", { method: "POST", cookie: u.cookie, body: { methods: [pass, recovery] } }))).status).toBe(201);
    const otherRaw = generateVaultKey();
    expect(
      (await vaultCreate(req("/api/vault", { method: "POST", cookie: other.cookie, body: { methods: [(await recoveryMethod(otherRaw, other.id)).method] } }))).status,
    ).toBe(201);

    const next = await passphraseMethod(raw, u.id, PASSPHRASE);
    const patch = (cookie: string, body: unknown) => methodReplace(req("/api/vault/methods", { method: "PATCH", cookie, body }));
    expect((await patch(other.cookie, { replaces: pass.id, method: await passphraseMethod(otherRaw, other.id, PASSPHRASE) })).status).toBe(404);
    const wrongKind = await patch(u.cookie, { replaces: recovery.id, method: next });
    expect(wrongKind.status).toBe(400);
    expect(((await wrongKind.json()) as { error: string }).error).toBe("A recovery method can only be replaced by another recovery.");
    const ok = await patch(u.cookie, { replaces: pass.id, method: next });
    expect(ok.status).toBe(200);
    const after = (await ok.json()) as VaultJson;
    expect(after.methods.map((m) => m.id).sort()).toEqual([next.id, recovery.id].sort());
  });
});

describe("re-wrap at the next unlock (docs/issues.md #21)", () => {
  it("an old weaker wrap is still served and opens; unlocking with it in the browser stores a wrap at today's parameters in its place", async () => {
    const u = await newUser();
    const raw = generateVaultKey();
    expect((await vaultCreate(req("/api/vault", { method: "POST", cookie: u.cookie, body: { methods: [(await recoveryMethod(raw, u.id)).method] } }))).status).toBe(201);
    // A wrap stored before the floor existed (46 MiB, 1 pass), written straight to the table as it was then.
    const old = await withParams(raw, u.id, OLD);
    const created = new Date("2026-01-02T03:04:05.000Z");
    await t.db.vaultMethod.create({
      data: { id: old.id, userId: u.id, kind: "passphrase", wrappedKey: Buffer.from(old.wrapped_key, "base64"), kdf: old.kdf, createdAt: created },
    });
    const served = (await state(u.cookie)).methods.find((m) => m.id === old.id)!;
    expect(served.kdf.argon2).toEqual(OLD);
    expect((await unlockWithPassphrase([served], u.id, PASSPHRASE)).raw).toEqual(raw);

    // The browser's vault store, its API calls routed to the real handlers with this user's session.
    const handlers: Record<string, (r: Request) => Promise<Response>> = {
      "GET /api/vault": (r) => vaultGet(r),
      "PATCH /api/vault/methods": (r) => methodReplace(r),
      "POST /api/vault/unlock": (r) => vaultUnlock(r),
    };
    const calls: string[] = [];
    // The unlock record is sent without waiting for it: the test waits for every call before the database closes.
    const inFlight: Promise<Response>[] = [];
    vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
      const key = `${init.method} ${url}`;
      calls.push(key);
      const handler = handlers[key];
      if (!handler) return Promise.reject(new Error(`unexpected call ${key}`));
      const answer = handler(req(url, { method: init.method, cookie: u.cookie, raw: init.body as string | undefined }));
      inFlight.push(answer);
      return answer;
    });
    const store = { ...(await import("@/lib/browser/vault/unlock")), ...(await import("@/lib/browser/vault/store")) };
    await store.refreshVault();
    await expect(store.unlockPassphrase("not the passphrase at all")).rejects.toMatchObject({ message: expect.stringMatching(/^That passphrase is not right/) });
    expect(calls).not.toContain("PATCH /api/vault/methods");
    await store.unlockPassphrase(PASSPHRASE);
    expect(calls).toContain("PATCH /api/vault/methods");

    const after = await state(u.cookie);
    const passphrases = after.methods.filter((m) => m.kind === "passphrase");
    expect(passphrases).toHaveLength(1);
    const renewed = passphrases[0]!;
    expect(renewed.id).not.toBe(old.id);
    expect(renewed.kdf.argon2).toEqual(ARGON2ID);
    expect(renewed.created_at).toBe(created.toISOString());
    // Same passphrase, same vault key; the old wrap is gone from the table and (PGlite) its files.
    expect((await unlockWithPassphrase(passphrases, u.id, PASSPHRASE)).raw).toEqual(raw);
    if (t.target.kind === "pglite") {
      await t.db.$executeRawUnsafe("CHECKPOINT");
      expect(tableFilesHold(t, Buffer.from(old.wrapped_key, "base64"))).toBe(false);
      expect(tableFilesHold(t, Buffer.from(renewed.wrapped_key, "base64"))).toBe(true);
    }
    // The browser's store holds the new state too, and a second unlock has nothing to re-wrap.
    expect(store.vaultSnapshot().info?.methods.map((m) => m.id)).toContain(renewed.id);
    store.lockVault();
    calls.length = 0;
    await store.unlockPassphrase(PASSPHRASE);
    expect(calls).not.toContain("PATCH /api/vault/methods");
    store.lockVault();
    await Promise.allSettled(inFlight);
  });
});

