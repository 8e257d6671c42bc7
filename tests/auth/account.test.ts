import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as checkAccountStatus } from "@/app/api/check_account_status/route";
import { POST as createAccount } from "@/app/api/create_account/route";
import { POST as deleteUser } from "@/app/api/delete_user/route";
import { saveSealedTurn } from "@/lib/server/db/queries";
import { setupTestDb, type TestDb } from "../db/setup-db";
import {
  createTestUser,
  sameOrigin,
  sessionCookieFor,
  signGoogleIdToken,
  startTestGoogleIssuer,
  stopTestGoogleIssuer,
} from "../helpers/auth";
import { withVault } from "../helpers/vault-api";

/**
 * POST /api/create_account, GET /api/check_account_status, POST /api/delete_user (docs/product.md §7) through
 * their real handlers, with real sessions and Google ID tokens.
 */
let t: TestDb;
const APP = "http://localhost:3000";

beforeAll(async () => {
  t = await setupTestDb();
  await startTestGoogleIssuer();
});

afterAll(async () => {
  await stopTestGoogleIssuer();
  await t.cleanup();
});

function post(handler: (r: Request) => Promise<Response>, path: string, init: { cookie?: string; headers?: Record<string, string>; body?: string | null } = {}) {
  const headers: Record<string, string> = { ...sameOrigin(), ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  if (init.body !== null) headers["Content-Type"] ??= "application/json";
  return handler(new Request(`${APP}${path}`, { method: "POST", headers, body: init.body === null ? undefined : (init.body ?? "{}") }));
}

const status = (cookie: string) => checkAccountStatus(new Request(`${APP}/api/check_account_status`, { headers: { cookie } }));

describe("POST /api/create_account", () => {
  it("401 without credentials, { error } JSON", async () => {
    const res = await post(createAccount, "/api/create_account");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Sign in to continue." });
  });

  it("answers ok for a live account, and is idempotent", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    for (let i = 0; i < 3; i++) {
      const res = await post(createAccount, "/api/create_account", { cookie });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, account_deleted: false });
    }
  });

  it("validates the body: an empty JSON object", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    expect((await post(createAccount, "/api/create_account", { cookie, body: '{"plan":"Pro"}' })).status).toBe(400);
    expect((await post(createAccount, "/api/create_account", { cookie, body: "[]" })).status).toBe(400);
    expect((await post(createAccount, "/api/create_account", { cookie, body: "{" })).status).toBe(400);
    const wrongType = await post(createAccount, "/api/create_account", { cookie, headers: { "Content-Type": "text/plain" } });
    expect(wrongType.status).toBe(415);
  });

  it("refuses a cross-site request authenticated by cookie (403), changing nothing", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const attempts: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { Origin: "http://localhost:3000.evil.example" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
    ];
    for (const h of attempts) {
      const res = await createAccount(
        new Request(`${APP}/api/create_account`, {
          method: "POST",
          headers: { cookie, "Content-Type": "application/json", ...h },
          body: "{}",
        }),
      );
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Cross-site request refused." });
    }
  });
});

describe("GET /api/check_account_status", () => {
  it("401 without credentials, { account_deleted: false } for a live account", async () => {
    const anonymous = await checkAccountStatus(new Request(`${APP}/api/check_account_status`));
    expect(anonymous.status).toBe(401);
    const user = await createTestUser();
    const res = await status(await sessionCookieFor(user.id));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(await res.json()).toEqual({ account_deleted: false });
  });
});

describe("POST /api/delete_user", () => {
  it("crypto-shreds the data, revokes every session, flags the account and clears the cookie", async () => {
    const user = await createTestUser();
    const laptop = await sessionCookieFor(user.id);
    const phone = await sessionCookieFor(user.id);
    await post(createAccount, "/api/create_account", { cookie: laptop });
    await withVault(user.id);
    const sealed = () => new Uint8Array(crypto.getRandomValues(new Uint8Array(64)));
    await saveSealedTurn({
      userId: user.id,
      chatId: crypto.randomUUID(),
      create: true,
      title: sealed(),
      firstPosition: 0,
      messages: [
        { role: "user", content: sealed(), attachment: null },
        { role: "assistant", content: sealed(), attachment: null },
      ],
    });
    expect(await t.db.vaultMethod.count({ where: { userId: user.id } })).toBe(2);

    const res = await post(deleteUser, "/api/delete_user", { cookie: phone, body: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
    expect(cleared).toMatch(/Max-Age=0/);

    // Flagged, data gone, every session revoked (the copied laptop cookie too).
    const row = await t.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.deletedAt).toBeInstanceOf(Date);
    // The vault's wrapped keys go with it: a copy of the ciphertext can no longer be opened, even with
    // the user's passphrase or recovery code.
    expect(await t.db.vault.count({ where: { userId: user.id } })).toBe(0);
    expect(await t.db.vaultMethod.count({ where: { userId: user.id } })).toBe(0);
    expect(await t.db.chat.count({ where: { userId: user.id } })).toBe(0);
    expect(await t.db.session.count({ where: { userId: user.id } })).toBe(0);
    expect((await status(laptop)).status).toBe(401);
    expect((await status(phone)).status).toBe(401);

    // Signing in again shows "Account Deleted"; create_account does not revive the account.
    const again = await sessionCookieFor(user.id);
    expect(await (await status(again)).json()).toEqual({ account_deleted: true });
    const created = await post(createAccount, "/api/create_account", { cookie: again });
    expect(created.status).toBe(200);
    expect(await created.json()).toEqual({ ok: true, account_deleted: true });
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).deletedAt).toEqual(row.deletedAt);
  });

  it("works with a Google ID token, after which the token sees a deleted account", async () => {
    const token = await signGoogleIdToken({ sub: "delete-me", email: "delete.me@example.test" });
    const bearer = { Authorization: `Bearer ${token}` };
    const created = await post(createAccount, "/api/create_account", { headers: bearer });
    expect(created.status).toBe(200);
    const res = await post(deleteUser, "/api/delete_user", { headers: bearer, body: null });
    expect(res.status).toBe(200);
    const after = await checkAccountStatus(new Request(`${APP}/api/check_account_status`, { headers: bearer }));
    expect(await after.json()).toEqual({ account_deleted: true });
    // Other endpoints refuse a deleted account with 403 (requireUser without allowDeleted).
    const { requireUser } = await import("@/lib/server/auth/session");
    await expect(requireUser(new Request(`${APP}/x`, { headers: bearer }))).rejects.toMatchObject({
      status: 403,
      message: "This account has been deleted.",
    });
  });

  it("401 without credentials; 403 cross-site (nothing deleted)", async () => {
    expect((await post(deleteUser, "/api/delete_user", { body: null })).status).toBe(401);
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const res = await deleteUser(
      new Request(`${APP}/api/delete_user`, { method: "POST", headers: { cookie, Origin: "https://evil.example" } }),
    );
    expect(res.status).toBe(403);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).deletedAt).toBeNull();
    expect((await status(cookie)).status).toBe(200);
  });
});
