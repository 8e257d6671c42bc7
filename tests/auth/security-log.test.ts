import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as checkAccountStatus } from "@/app/api/check_account_status/route";
import { POST as deleteUser } from "@/app/api/delete_user/route";
import { POST as webhook } from "@/app/api/stripe/webhook/route";
import { resetConfigForTests } from "../helpers/process-state";
import { captureLogsForTests, pseudonym } from "@/lib/server/log";
import { closeRateLimits } from "@/lib/server/rate-limit";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { AuthTestClient, tokenOf } from "../helpers/auth-flow";
import { extractSignInLink, startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

/**
 * docs/issues.md #10, logs: what the real route handlers write to the log, captured as the JSON lines production
 * writes. Each security event is there; user input cannot forge a line; no address, token or cookie
 * appears in clear.
 */
let t: TestDb;
let smtp: TestSmtpServer;
let capture: ReturnType<typeof captureLogsForTests>;
const APP = "http://localhost:3000";

beforeAll(async () => {
  t = await setupTestDb();
  smtp = await startSmtpServer();
  process.env.EMAIL_SERVER = smtp.url;
  process.env.EMAIL_FROM = "Hush <no-reply@hush.test>";
  process.env.APP_URL = APP;
  process.env.EMAIL_SIGNIN_LIMIT_PER_HOUR = "2";
  process.env.STRIPE_SECRET_KEY = "sk_test_log";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_log_0123456789";
  resetConfigForTests();
});

afterAll(async () => {
  for (const k of ["EMAIL_SERVER", "EMAIL_FROM", "EMAIL_SIGNIN_LIMIT_PER_HOUR", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"]) delete process.env[k];
  await closeRateLimits();
  await smtp.close();
  await t.cleanup();
});

beforeEach(() => {
  capture?.restore();
  capture = captureLogsForTests();
});

let n = 0;
const fresh = () => `Person.${++n}.${Date.now()}@Example.test`;

/** Every line must be one JSON record: a forged line would not parse (or would be an extra record). */
function records(): Record<string, unknown>[] {
  for (const line of capture.lines) expect(() => JSON.parse(line), line).not.toThrow();
  return capture.records();
}
const events = () => records().filter((r) => r.component === "security").map((r) => r.event);

async function signIn(email: string): Promise<{ client: AuthTestClient; token: string }> {
  const client = new AuthTestClient();
  const since = Date.now();
  expect((await client.requestEmailLink(email)).status).toBe(200);
  const token = tokenOf(extractSignInLink(await smtp.waitForMail(email.toLowerCase(), { since })));
  expect((await client.completeEmailLink(token, email)).status).toBe(302);
  return { client, token };
}

describe("log lines cannot be forged", () => {
  it("POST /api/auth/_log (next-auth's client logger) is answered 204 and writes nothing to the log (docs/issues.md #22)", async () => {
    const client = new AuthTestClient();
    for (const level of ["error", "warn", "debug"]) {
      const res = await client.call("_log", {
        form: { code: "X\n[hush] Ready: forged line\r\n{\"level\":\"info\"}", level, message: "a\nb".repeat(1000) },
      });
      expect(res.status).toBe(204);
    }
    expect(capture.lines).toEqual([]);
  });

  it("an invalid callbackUrl is refused with 400 (not next-auth's 500) and not written to the log raw", async () => {
    const client = new AuthTestClient();
    const res = await client.call(`session?callbackUrl=${encodeURIComponent("javascript:alert(1)\n[forged] line")}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.stringContaining("callbackUrl") });
    expect(capture.lines.join("\n")).not.toContain("[forged] line");
    records();
  });

  it("an invalid callback-URL cookie is ignored instead of breaking every later call", async () => {
    const client = new AuthTestClient();
    client.jar.set("next-auth.callback-url", "javascript:alert(1)\n[forged]");
    const res = await client.call("csrf");
    expect(res.status).toBe(200);
    expect(capture.lines.join("\n")).not.toContain("[forged]");
  });
});

describe("security events", () => {
  it("sign-in success, sign-out, with the user's id and no address, token or cookie in clear", async () => {
    const email = fresh();
    const { client, token } = await signIn(email);
    const csrfToken = await client.csrfToken();
    const cookie = client.cookieHeader();
    expect((await client.call("signout", { form: { csrfToken, json: "true" } })).status).toBe(200);
    const user = await t.db.user.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
    const all = records();
    expect(all).toContainEqual(expect.objectContaining({ event: "auth.sign_in", userId: user.id, provider: "email" }));
    expect(all).toContainEqual(expect.objectContaining({ event: "auth.sign_out", userId: user.id }));
    const text = capture.lines.join("\n");
    expect(text.toLowerCase()).not.toContain(email.toLowerCase());
    expect(text).not.toContain(token);
    expect(text).not.toContain(csrfToken.split("|")[0]!);
    for (const part of cookie.split("; ")) expect(text).not.toContain(part.slice(part.indexOf("=") + 1));
  });

  it("sign-in failure: a wrong e-mail link token", async () => {
    const client = new AuthTestClient();
    await client.completeEmailLink("0".repeat(64), fresh());
    expect(events()).toContain("auth.sign_in_failed");
  });

  it("401, 403 and 429 refusals", async () => {
    expect((await checkAccountStatus(new Request(`${APP}/api/check_account_status`))).status).toBe(401);
    const crossSite = await deleteUser(new Request(`${APP}/api/delete_user`, { method: "POST", headers: { Origin: "https://evil.example" } }));
    expect(crossSite.status).toBe(403);
    const email = fresh();
    const client = new AuthTestClient();
    let last = 0;
    for (let i = 0; i < 3; i++) last = (await client.requestEmailLink(email)).status;
    expect(last).toBe(429);
    const all = records();
    expect(all).toContainEqual(expect.objectContaining({ event: "http.unauthorized", route: "check_account_status" }));
    expect(all).toContainEqual(expect.objectContaining({ event: "http.forbidden", route: "delete_user" }));
    expect(all).toContainEqual(expect.objectContaining({ event: "http.rate_limited", route: "auth" }));
    expect(capture.lines.join("\n").toLowerCase()).not.toContain(email.toLowerCase());
  });

  it("account deletion revokes the sessions, each logged", async () => {
    const email = fresh();
    const { client } = await signIn(email);
    const res = await deleteUser(new Request(`${APP}/api/delete_user`, { method: "POST", headers: { Origin: APP, cookie: client.cookieHeader() } }));
    expect(res.status).toBe(200);
    const user = await t.db.user.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
    const all = records();
    expect(all).toContainEqual(expect.objectContaining({ event: "auth.session_revoked", userId: user.id, count: 1 }));
    expect(all).toContainEqual(expect.objectContaining({ event: "account.deleted", userId: user.id }));
  });

  it("a Stripe webhook with a bad signature", async () => {
    const res = await webhook(
      new Request(`${APP}/api/stripe/webhook`, { method: "POST", headers: { "stripe-signature": "t=1,v1=00" }, body: "{}" }),
    );
    expect(res.status).toBe(400);
    expect(events()).toContain("stripe.webhook_signature_failed");
  });
});

describe("the pseudonym of an address", () => {
  it("is stable, case-insensitive, and not the address", () => {
    expect(pseudonym("A@Example.test")).toBe(pseudonym("a@example.test"));
    expect(pseudonym("a@example.test")).not.toBe(pseudonym("b@example.test"));
    expect(pseudonym("a@example.test")).toMatch(/^h:[0-9a-f]{12}$/);
  });
});
