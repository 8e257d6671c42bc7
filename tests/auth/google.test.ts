import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as idTokenSignIn } from "@/app/api/auth/id-token/route";
import { GET as checkAccountStatus } from "@/app/api/check_account_status/route";
import { parseCookies } from "@/lib/server/auth/cookies";
import { desktopDeepLink, handoffCookieName, openHandoff } from "@/lib/server/auth/desktop";
import { verifyGoogleIdToken } from "@/lib/server/auth/google-id-token";
import { getRequestUser } from "@/lib/server/auth/session";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, signGoogleIdToken, startTestGoogleIssuer, stopTestGoogleIssuer } from "../helpers/auth";
import { AuthTestClient } from "../helpers/auth-flow";
import type { TestOidcServer } from "../helpers/oidc";

/**
 * Google sign-in through next-auth's OAuth flow (the real /api/auth handler and openid-client,
 * against a local OpenID Connect issuer), the desktop hand-off, and /appsignup's ID-token sign-in.
 */
let t: TestDb;
let idp: TestOidcServer;
const APP = "http://localhost:3000";

beforeAll(async () => {
  t = await setupTestDb();
  idp = await startTestGoogleIssuer();
});

afterAll(async () => {
  await stopTestGoogleIssuer();
  await t.cleanup();
});

/** Start Google sign-in as the pages do, follow the issuer's redirect, and return the callback's answer. */
async function googleSignIn(client: AuthTestClient, callbackPath: string, tamper?: (callback: URL) => void): Promise<Response> {
  const csrfToken = await client.csrfToken();
  const started = await client.call("signin/google", {
    form: { csrfToken, callbackUrl: new URL(callbackPath, APP).toString(), json: "true" },
  });
  expect(started.status).toBe(200);
  const { url } = (await started.json()) as { url: string };
  expect(url.startsWith(`${idp.issuer}/authorize?`)).toBe(true);
  const authorize = new URL(url);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("scope")).toBe("openid email profile");

  const atIssuer = await fetch(url, { redirect: "manual" });
  const callback = new URL(atIssuer.headers.get("location")!);
  expect(callback.origin + callback.pathname).toBe(`${APP}/api/auth/callback/google`);
  tamper?.(callback);
  return client.call(`callback/google${callback.search}`);
}

const statusOf = (cookie: string) =>
  checkAccountStatus(new Request(`${APP}/api/check_account_status`, { headers: { cookie } }));

describe("Continue with Google on /signup", () => {
  it("lists both providers", async () => {
    const providers = await (await new AuthTestClient().call("providers")).json();
    expect(Object.keys(providers).sort()).toEqual(["email", "google"]);
  });

  it("signs in with a database session and lands on the callback URL; keeps no provider tokens or profile", async () => {
    idp.setIdentity({ sub: "g-web-1", email: "Web.User@Example.test" });
    const client = new AuthTestClient();
    const done = await googleSignIn(client, "/signup?complete=1");
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`${APP}/signup?complete=1`);
    expect((await statusOf(client.cookieHeader())).status).toBe(200);
    expect(await getRequestUser(new Request(APP, { headers: { cookie: client.cookieHeader() } }))).toMatchObject({
      email: "web.user@example.test",
      via: "session",
    });
    const account = await t.db.account.findUniqueOrThrow({
      where: { provider_providerAccountId: { provider: "google", providerAccountId: "g-web-1" } },
      include: { user: true },
    });
    expect([account.access_token, account.id_token, account.refresh_token]).toEqual([null, null, null]);
    expect([account.user.name, account.user.image]).toEqual([null, null]);
    // No desktop hand-off for a web sign-in.
    expect(client.jar.has(handoffCookieName())).toBe(false);
  });

  it("joins the account that signed in by e-mail with the same (verified) address", async () => {
    const existing = await createTestUser("both.ways@example.test");
    idp.setIdentity({ sub: "g-link-1", email: "both.ways@example.test" });
    const client = new AuthTestClient();
    await googleSignIn(client, "/signup?complete=1");
    expect(await getRequestUser(new Request(APP, { headers: { cookie: client.cookieHeader() } }))).toMatchObject({
      id: existing.id,
    });
  });

  it("refuses an unverified Google address with an error code on /signup", async () => {
    idp.setIdentity({ sub: "g-unverified", email: "unverified@example.test", email_verified: false });
    const client = new AuthTestClient();
    const done = await googleSignIn(client, "/signup?complete=1");
    expect(done.headers.get("location")).toBe(`${APP}/signup?error=GoogleEmailNotVerified`);
    expect((await statusOf(client.cookieHeader())).status).toBe(401);
    expect(await t.db.user.count({ where: { email: "unverified@example.test" } })).toBe(0);
  });

  it("turns the provider's own error (e.g. the user cancelled) into an error code on /signup", async () => {
    idp.setIdentity({ sub: "g-cancel", email: "cancel@example.test" });
    const client = new AuthTestClient();
    const done = await googleSignIn(client, "/signup?complete=1", (callback) => {
      callback.searchParams.delete("code");
      callback.searchParams.set("error", "access_denied");
    });
    expect(done.headers.get("location")).toBe(`${APP}/signup?error=Callback`);
  });

  it("refuses a callback whose state does not match (forged or replayed)", async () => {
    idp.setIdentity({ sub: "g-state", email: "state@example.test" });
    const client = new AuthTestClient();
    const done = await googleSignIn(client, "/signup?complete=1", (callback) => callback.searchParams.set("state", "forged"));
    expect(done.headers.get("location")).toMatch(/\/signup\?error=/);
    expect((await statusOf(client.cookieHeader())).status).toBe(401);
  });
});

describe("the desktop app (/appsignup)", () => {
  it("after Google sign-in, hands the ID token to /appsignup?handoff=1 in a sealed cookie, for the deep link", async () => {
    idp.setIdentity({ sub: "g-desktop-1", email: "desktop@example.test" });
    const client = new AuthTestClient();
    const done = await googleSignIn(client, "/appsignup?handoff=1");
    expect(done.headers.get("location")).toBe(`${APP}/appsignup?handoff=1`);
    const line = done.headers.getSetCookie().find((c) => c.startsWith(`${handoffCookieName()}=`))!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/Path=\/appsignup/);
    expect(line).toMatch(/Max-Age=120/);
    const sealed = parseCookies(line.split(";")[0]!)[handoffCookieName()]!;
    expect(sealed.split(".")).toHaveLength(5); // a JWE, not the token itself
    const idToken = await openHandoff(sealed);
    expect(idToken).toBeTruthy();
    expect(await verifyGoogleIdToken(idToken!)).toMatchObject({ sub: "g-desktop-1", email: "desktop@example.test" });
    expect(desktopDeepLink(idToken!)).toBe(`hush://auth?idToken=${encodeURIComponent(idToken!)}`);
    // One ciphertext character changed (never a padding bit of the tag): the seal no longer opens.
    const parts = sealed.split(".");
    parts[3] = (parts[3]![0] === "A" ? "B" : "A") + parts[3]!.slice(1);
    expect(await openHandoff(parts.join("."))).toBeNull();
  });

  it("sends errors of a desktop sign-in back to /appsignup", async () => {
    idp.setIdentity({ sub: "g-desktop-2", email: "desktop2@example.test", email_verified: false });
    const done = await googleSignIn(new AuthTestClient(), "/appsignup?handoff=1");
    expect(done.headers.get("location")).toBe(`${APP}/appsignup?error=GoogleEmailNotVerified`);
  });

  describe("POST /api/auth/id-token (/appsignup?idToken=…)", () => {
    const signInWith = (idToken: string, origin = APP) =>
      idTokenSignIn(
        new Request(`${APP}/api/auth/id-token`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: origin },
          body: JSON.stringify({ idToken }),
        }),
      );

    it("verifies the token, finds or creates the account by subject and starts a normal session", async () => {
      const token = await signGoogleIdToken({ sub: "g-app-1", email: "app.one@example.test" });
      const res = await signInWith(token);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, account_deleted: false });
      const cookie = res.headers.get("set-cookie")!;
      expect(cookie).toMatch(/^next-auth\.session-token=[A-Za-z0-9_-]{43}; Path=\/; Expires=.*; HttpOnly; SameSite=Lax$/);
      const user = await getRequestUser(new Request(APP, { headers: { cookie: cookie.split(";")[0]! } }));
      expect(user).toMatchObject({ email: "app.one@example.test", via: "session" });

      // Same subject, new address: same account.
      const again = await signInWith(await signGoogleIdToken({ sub: "g-app-1", email: "renamed@example.test" }));
      const second = await getRequestUser(new Request(APP, { headers: { cookie: again.headers.get("set-cookie")!.split(";")[0]! } }));
      expect(second?.id).toBe(user?.id);
    });

    it("401 for an invalid token, 403 cross-site, 400 without a token; no session either way", async () => {
      const bad = await signInWith(await signGoogleIdToken({ aud: "other" }));
      expect(bad.status).toBe(401);
      expect(bad.headers.get("set-cookie")).toBeNull();
      expect((await bad.json()).error).toMatch(/invalid or has expired/);
      const cross = await signInWith(await signGoogleIdToken({ sub: "g-cross" }), "https://evil.example");
      expect(cross.status).toBe(403);
      expect(await t.db.account.count({ where: { providerAccountId: "g-cross" } })).toBe(0);
      const empty = await idTokenSignIn(
        new Request(`${APP}/api/auth/id-token`, { method: "POST", headers: { "Content-Type": "application/json", Origin: APP }, body: "{}" }),
      );
      expect(empty.status).toBe(400);
    });

    it("reports a deleted account", async () => {
      const token = await signGoogleIdToken({ sub: "g-app-deleted", email: "gone@example.test" });
      await signInWith(token);
      await t.db.user.update({ where: { email: "gone@example.test" }, data: { deletedAt: new Date() } });
      expect(await (await signInWith(token)).json()).toEqual({ ok: true, account_deleted: true });
    });
  });
});
