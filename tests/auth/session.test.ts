import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as checkAccountStatus } from "@/app/api/check_account_status/route";
import { resetConfigForTests } from "../helpers/process-state";
import { getRequestUser, requireUser } from "@/lib/server/auth/session";
import { hashSessionToken } from "@/lib/server/db/sessions";
import { closeRateLimits } from "@/lib/server/rate-limit";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { AuthTestClient, tokenOf } from "../helpers/auth-flow";
import { extractSignInLink, startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

/**
 * Session cookies (database sessions): resolution, expiry, revocation on sign-out, hashing at rest,
 * and the cookie's attributes.
 */
let t: TestDb;
let smtp: TestSmtpServer;
const APP = "http://localhost:3000";

beforeAll(async () => {
  t = await setupTestDb();
  smtp = await startSmtpServer();
  process.env.EMAIL_SERVER = smtp.url;
  resetConfigForTests();
});

afterAll(async () => {
  delete process.env.EMAIL_SERVER;
  await closeRateLimits();
  await smtp.close();
  await t.cleanup();
});

const req = (cookie: string | null) => new Request(`${APP}/api/x`, { headers: cookie ? { cookie } : {} });

/** Sign in through the real e-mail flow; returns the browser. */
async function signIn(email: string): Promise<AuthTestClient> {
  const client = new AuthTestClient();
  const since = Date.now();
  await client.requestEmailLink(email);
  const link = extractSignInLink(await smtp.waitForMail(email, { since }));
  const done = await client.completeEmailLink(tokenOf(link), email);
  expect(done.status).toBe(302);
  return client;
}

describe("getRequestUser with the session cookie", () => {
  it("returns the user of a live session, via 'session'", async () => {
    const user = await createTestUser("live@example.test");
    const cookie = await sessionCookieFor(user.id);
    expect(await getRequestUser(req(`theme=dark; ${cookie}; other=1`))).toEqual({
      id: user.id,
      email: "live@example.test",
      deleted: false,
      via: "session",
    });
  });

  it("returns null for no cookie, an unknown token, garbage, and an expired session", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    expect(await getRequestUser(req(null))).toBeNull();
    expect(await getRequestUser(req("next-auth.session-token=unknown-token"))).toBeNull();
    expect(await getRequestUser(req("next-auth.session-token=%E0%A4%A"))).toBeNull();
    expect(await getRequestUser(req(`next-auth.session-token=${"x".repeat(5000)}`))).toBeNull();
    const token = cookie.split("=")[1]!;
    await t.db.session.update({ where: { sessionToken: hashSessionToken(token) }, data: { expires: new Date(Date.now() - 1000) } });
    expect(await getRequestUser(req(cookie))).toBeNull();
    await expect(requireUser(req(cookie))).rejects.toMatchObject({ status: 401 });
  });

  it("returns a deleted account with deleted: true; requireUser answers 403 unless allowDeleted", async () => {
    const user = await createTestUser();
    await t.db.user.update({ where: { id: user.id }, data: { deletedAt: new Date() } });
    const cookie = await sessionCookieFor(user.id);
    expect(await getRequestUser(req(cookie))).toMatchObject({ id: user.id, deleted: true });
    await expect(requireUser(req(cookie))).rejects.toMatchObject({ status: 403, message: "This account has been deleted." });
    expect(await requireUser(req(cookie), { allowDeleted: true })).toMatchObject({ deleted: true });
  });

  it("keeps only a hash of the token in the database", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const token = cookie.split("=")[1]!;
    const rows = await t.db.session.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sessionToken).not.toContain(token);
    expect(rows[0]!.sessionToken).toBe(hashSessionToken(token));
    // The stored value itself is no credential.
    expect(await getRequestUser(req(`next-auth.session-token=${rows[0]!.sessionToken}`))).toBeNull();
  });
});

describe("GET /api/auth/session", () => {
  it("sets no cookie at all for a visitor (no trackers: docs/product.md §1)", async () => {
    const visitor = new AuthTestClient();
    const res = await visitor.call("session");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await visitor.call("providers")).headers.getSetCookie()).toEqual([]);
  });
});

describe("a session made by next-auth (e-mail sign-in)", () => {
  it("is resolved by getRequestUser and by next-auth's /api/auth/session", async () => {
    const client = await signIn("flow@example.test");
    expect(await getRequestUser(req(client.cookieHeader()))).toMatchObject({ email: "flow@example.test", via: "session" });
    const session = await (await client.call("session")).json();
    expect(session.user).toEqual({ email: "flow@example.test" });
  });

  it("stops working at once after sign-out, even for a copied cookie", async () => {
    const client = await signIn("logout@example.test");
    const copied = client.cookieHeader();
    expect((await checkAccountStatus(req(copied))).status).toBe(200);

    const csrfToken = await client.csrfToken();
    const out = await client.call("signout", { form: { csrfToken, json: "true" } });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token=;"))).toBe(true);
    expect((await checkAccountStatus(req(copied))).status).toBe(401);
    const user = await t.db.user.findUniqueOrThrow({ where: { email: "logout@example.test" } });
    expect(await t.db.session.count({ where: { userId: user.id } })).toBe(0);
  });

  it("sign-out needs next-auth's CSRF token and the same origin", async () => {
    const client = await signIn("csrf-out@example.test");
    const copied = client.cookieHeader();
    await client.call("signout", { form: { csrfToken: "forged", json: "true" } });
    expect((await checkAccountStatus(req(copied))).status).toBe(200);
    const csrfToken = await client.csrfToken();
    const crossSite = await client.call("signout", { form: { csrfToken, json: "true" }, headers: { Origin: "https://evil.example" } });
    expect(crossSite.status).toBe(403);
    expect((await checkAccountStatus(req(copied))).status).toBe(200);
  });
});

describe("cookie attributes", () => {
  it("HttpOnly, SameSite=Lax, Path=/, and Secure with the __Secure- prefix when APP_URL is https", async () => {
    process.env.APP_URL = "https://hush.example";
    resetConfigForTests();
    try {
      const email = "secure@example.test";
      const client = new AuthTestClient();
      const since = Date.now();
      await client.requestEmailLink(email);
      const link = extractSignInLink(await smtp.waitForMail(email, { since }));
      expect(link.startsWith("https://hush.example/signup?token=")).toBe(true);
      const done = await client.completeEmailLink(tokenOf(link), email);
      const cookie = done.headers.getSetCookie().find((c) => c.includes("session-token="));
      expect(cookie).toMatch(/^__Secure-next-auth\.session-token=/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; SameSite=Lax/i);
      expect(cookie).toMatch(/; Path=\//);
      expect(await getRequestUser(req(client.cookieHeader()))).toMatchObject({ email });
      // The plain-http name is not read under https.
      const plain = client.cookieHeader().replace("__Secure-next-auth.session-token", "next-auth.session-token");
      expect(await getRequestUser(req(plain))).toBeNull();
    } finally {
      delete process.env.APP_URL;
      resetConfigForTests();
    }
  });
});
