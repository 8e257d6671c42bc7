import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getShare } from "@/app/api/shares/[shareId]/route";
import { DELETE as revoke, GET as list, POST as create } from "@/app/api/shares/route";
import { POST as deleteUser } from "@/app/api/delete_user/route";
import { resetConfigForTests } from "../helpers/process-state";
import { openSnapshot, sealSnapshot, type SharedSnapshot } from "@/lib/browser/share/crypto";
import { MAX_SHARES_PER_USER, SHARE_CREATE_MAX_BODY_BYTES, SHARE_MAX_CIPHERTEXT_BYTES } from "@/lib/shared/share/schemas";
import { fromBase64, toBase64 } from "@/lib/browser/vault/crypto";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { dumpDatabase } from "../helpers/db-dump";
import { req } from "../helpers/vault-api";

/**
 * Share links (docs/issues.md #23): the server stores and answers ciphertext only, lists and revokes a share
 * for its owner only (404 for anyone else's), refuses bad bodies and oversized snapshots, and deletes a
 * user's shares with the account.
 */
let t: TestDb;
let alice: { id: string; cookie: string };
let bob: { id: string; cookie: string };

const SECRET = "the launch date is the ninth of March";
const snapshot: SharedSnapshot = {
  v: 1,
  title: "Launch plans",
  sharedAt: "2026-11-26T12:00:00.000Z",
  messages: [
    { role: "user", content: `Remember: ${SECRET}`, attachmentName: "plan.docx" },
    { role: "assistant", content: "Noted." },
  ],
};

const person = async () => {
  const { id } = await createTestUser();
  return { id, cookie: await sessionCookieFor(id) };
};
const post = (cookie: string, body: unknown) => create(req("/api/shares", { method: "POST", cookie, body }));
const get = (id: string) => getShare(req(`/api/shares/${id}`), { params: Promise.resolve({ shareId: id }) });
const del = (cookie: string, body: unknown) => revoke(req("/api/shares", { method: "DELETE", cookie, body }));
const listed = async (cookie: string) => ((await (await list(req("/api/shares", { cookie }))).json()) as { shares: { id: string; bytes: number }[] }).shares;

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await person();
  bob = await person();
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

describe("/api/shares", () => {
  it("stores only ciphertext; anyone with the id gets it back, and only the fragment's key opens it", async () => {
    const { ciphertext, fragmentKey } = await sealSnapshot(snapshot);
    const res = await post(alice.cookie, { ciphertext: toBase64(ciphertext) });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const { id } = (await res.json()) as { id: string };

    const dump = await dumpDatabase(t.db);
    for (const clear of [SECRET, "Launch plans", "plan.docx", fragmentKey]) expect(dump).not.toContain(clear);

    // A visitor (no cookie) reads it by id: ciphertext only.
    const read = await get(id);
    expect(read.status).toBe(200);
    const body = (await read.json()) as { ciphertext: string };
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect(await openSnapshot(fromBase64(body.ciphertext), fragmentKey)).toEqual(snapshot);
    const { fragmentKey: otherKey } = await sealSnapshot(snapshot);
    expect(await openSnapshot(fromBase64(body.ciphertext), otherKey)).toBeNull();
    expect(await openSnapshot(fromBase64(body.ciphertext), "not a key")).toBeNull();

    expect(await listed(alice.cookie)).toEqual([expect.objectContaining({ id, bytes: ciphertext.length })]);
    expect(await listed(bob.cookie)).toEqual([]);

    // Bob cannot revoke it: 404, as for an id nobody holds.
    expect((await del(bob.cookie, { id })).status).toBe(404);
    expect((await del(alice.cookie, { id: crypto.randomUUID() })).status).toBe(404);
    expect((await get(id)).status).toBe(200);

    // Revoked: gone for everyone.
    const gone = await del(alice.cookie, { id });
    expect(gone.status).toBe(200);
    expect(((await gone.json()) as { shares: unknown[] }).shares).toEqual([]);
    const after = await get(id);
    expect(after.status).toBe(404);
    expect((await after.json()).error).toBe("This shared chat was not found. It may have been revoked.");
    expect((await get("not-a-uuid")).status).toBe(404);
  });

  it("refuses without a session (401), bad bodies (400), oversized snapshots (400/413) and past the per-account limit", async () => {
    expect((await post("", { ciphertext: "AAAA" })).status).toBe(401);
    expect((await list(req("/api/shares"))).status).toBe(401);
    expect((await del("", { id: crypto.randomUUID() })).status).toBe(401);

    for (const body of [{}, { ciphertext: "" }, { ciphertext: "not base64!" }, { ciphertext: "AAAA", extra: 1 }, { ciphertext: 42 }]) {
      const res = await post(alice.cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error).toEqual(expect.any(String));
    }
    for (const body of [{}, { id: "nope" }, { id: crypto.randomUUID(), more: true }]) expect((await del(alice.cookie, body)).status).toBe(400);

    // One byte past the ciphertext limit, within the body limit: 400; past the body limit: 413.
    const over = toBase64(new Uint8Array(SHARE_MAX_CIPHERTEXT_BYTES + 1));
    expect(over.length + 20).toBeLessThanOrEqual(SHARE_CREATE_MAX_BODY_BYTES);
    expect((await post(alice.cookie, { ciphertext: over })).status).toBe(400);
    const huge = await create(req("/api/shares", { method: "POST", cookie: alice.cookie, raw: JSON.stringify({ ciphertext: "A".repeat(SHARE_CREATE_MAX_BODY_BYTES) }) }));
    expect(huge.status).toBe(413);
    // At the limit: accepted.
    expect((await post(alice.cookie, { ciphertext: toBase64(new Uint8Array(SHARE_MAX_CIPHERTEXT_BYTES)) })).status).toBe(201);

    const carol = await person();
    const small = toBase64(new Uint8Array(64));
    await t.db.share.createMany({ data: Array.from({ length: MAX_SHARES_PER_USER }, () => ({ userId: carol.id, ciphertext: new Uint8Array(64) })) });
    const full = await post(carol.cookie, { ciphertext: small });
    expect(full.status).toBe(400);
    expect((await full.json()).error).toBe(`At most ${MAX_SHARES_PER_USER} share links: revoke one in Settings first.`);
  });

  it("refuses a cross-site create by cookie (403)", async () => {
    const res = await create(req("/api/shares", { method: "POST", cookie: alice.cookie, origin: "https://evil.example", body: { ciphertext: "AAAA" } }));
    expect(res.status).toBe(403);
  });

  it("deleting the account deletes its shares", async () => {
    const dave = await person();
    const { ciphertext } = await sealSnapshot(snapshot);
    const { id } = (await (await post(dave.cookie, { ciphertext: toBase64(ciphertext) })).json()) as { id: string };
    expect((await get(id)).status).toBe(200);
    expect((await deleteUser(req("/api/delete_user", { method: "POST", cookie: dave.cookie }))).status).toBe(200);
    expect((await get(id)).status).toBe(404);
    expect(await t.db.share.count({ where: { userId: dave.id } })).toBe(0);
  });
});
