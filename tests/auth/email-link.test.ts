import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as checkAccountStatus } from "@/app/api/check_account_status/route";
import { resetConfigForTests } from "../helpers/process-state";
import { closeRateLimits } from "@/lib/server/rate-limit";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { AuthTestClient, tokenOf } from "../helpers/auth-flow";
import { extractSignInLink, startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

/**
 * Sign-in by e-mail link (docs/product.md §4) through the real /api/auth handler, next-auth and a real SMTP
 * server: the e-mailed link opens /signup and is consumed only by that page's POST; it works once,
 * for 10 minutes; requests are limited per address.
 */
let testDb: TestDb;
let smtp: TestSmtpServer;
const APP = "http://localhost:3000";

beforeAll(async () => {
  testDb = await setupTestDb();
  smtp = await startSmtpServer();
  process.env.EMAIL_SERVER = smtp.url;
  process.env.EMAIL_FROM = "Hush <no-reply@hush.test>";
  process.env.APP_URL = APP;
  process.env.EMAIL_SIGNIN_LIMIT_PER_HOUR = "5";
  resetConfigForTests();
});

afterAll(async () => {
  delete process.env.EMAIL_SERVER;
  delete process.env.EMAIL_FROM;
  delete process.env.EMAIL_SIGNIN_LIMIT_PER_HOUR;
  await closeRateLimits();
  await smtp.close();
  await testDb.cleanup();
});

afterEach(() => {
  vi.useRealTimers();
});

let counter = 0;
const freshAddress = () => `person${++counter}.${Date.now()}@example.test`;

/** Ask for a link as /signup does and return it from the received e-mail. */
async function requestLink(client: AuthTestClient, email: string): Promise<string> {
  const since = Date.now();
  const res = await client.requestEmailLink(email);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ ok: true });
  return extractSignInLink(await smtp.waitForMail(email.toLowerCase(), { since }));
}

async function statusWith(client: AuthTestClient): Promise<Response> {
  return checkAccountStatus(new Request(`${APP}/api/check_account_status`, { headers: { cookie: client.cookieHeader() } }));
}

describe("the e-mailed link", () => {
  it("is /signup?token=… on APP_URL, carries no address, and says it expires in 10 minutes", async () => {
    const email = freshAddress();
    const since = Date.now();
    await new AuthTestClient().requestEmailLink(email);
    const mail = await smtp.waitForMail(email, { since });
    const link = new URL(extractSignInLink(mail));
    expect(link.origin + link.pathname).toBe(`${APP}/signup`);
    expect([...link.searchParams.keys()]).toEqual(["token"]);
    expect(link.searchParams.get("token")).toMatch(/^[0-9a-f]{64}$/);
    expect(mail.subject).toBe("Sign in to Hush");
    expect(mail.text).toContain("10 minutes");
    expect(mail.html).toContain(link.searchParams.get("token")!);
    expect(mail.from).toBe("no-reply@hush.test");
  });

  it("signs in once: the page's POST starts a session and lands on the callback URL", async () => {
    const email = freshAddress();
    const client = new AuthTestClient();
    const token = tokenOf(await requestLink(client, email));

    const done = await client.completeEmailLink(token, email.toUpperCase());
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`${APP}/signup?complete=1`);
    const cookie = done.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // APP_URL is http here; https makes it Secure (cookies test)

    const status = await statusWith(client);
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ account_deleted: false });
    const user = await testDb.db.user.findUnique({ where: { email } });
    expect(user?.emailVerified).toBeInstanceOf(Date);

    // Used: a second attempt (another browser) is refused and signs nobody in.
    const other = new AuthTestClient();
    const again = await other.completeEmailLink(token, email);
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe(`${APP}/signup?error=Verification`);
    expect([...other.jar.keys()].some((k) => k.includes("session-token"))).toBe(false);
  });

  it("is not used up by a GET or a HEAD (mail scanners): they are sent to /signup?token=…", async () => {
    const email = freshAddress();
    const client = new AuthTestClient();
    const token = tokenOf(await requestLink(client, email));
    const before = await testDb.db.verificationToken.count();

    // next-auth's own callback URL, as a scanner that guessed it would open it, with and without the address.
    for (const method of ["GET", "HEAD"]) {
      for (const query of [`token=${token}&email=${encodeURIComponent(email)}`, `token=${token}`]) {
        const scanner = new AuthTestClient();
        const res = await scanner.call(`callback/email?${query}`, { method });
        expect(res.status).toBe(303);
        expect(res.headers.get("location")).toBe(`${APP}/signup?token=${token}`);
        expect(res.headers.getSetCookie().some((c) => c.includes("session-token"))).toBe(false);
      }
    }
    expect(await testDb.db.verificationToken.count()).toBe(before);

    const done = await client.completeEmailLink(token, email);
    expect(done.headers.get("location")).toBe(`${APP}/signup?complete=1`);
  });

  it("expires after 10 minutes", async () => {
    const email = freshAddress();
    const client = new AuthTestClient();
    const issuedAt = Date.now();
    const token = tokenOf(await requestLink(client, email));
    const row = await testDb.db.verificationToken.findFirst({ where: { identifier: email } });
    expect(row!.expires.getTime() - issuedAt).toBeGreaterThan(9 * 60 * 1000);
    expect(row!.expires.getTime() - issuedAt).toBeLessThanOrEqual(10 * 60 * 1000 + 5000);

    vi.useFakeTimers({ toFake: ["Date"], now: row!.expires.getTime() + 1000 });
    const late = await client.completeEmailLink(token, email);
    expect(late.headers.get("location")).toBe(`${APP}/signup?error=Verification`);
    vi.useRealTimers();
    expect((await statusWith(client)).status).toBe(401);
  });

  it("still works at 9 minutes", async () => {
    const email = freshAddress();
    const client = new AuthTestClient();
    const token = tokenOf(await requestLink(client, email));
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 9 * 60 * 1000 });
    const done = await client.completeEmailLink(token, email);
    vi.useRealTimers();
    expect(done.headers.get("location")).toBe(`${APP}/signup?complete=1`);
  });

  it("with another address (confirmed on another device) fails and stays usable with the right one", async () => {
    const email = freshAddress();
    const client = new AuthTestClient();
    const token = tokenOf(await requestLink(client, email));
    const wrong = await new AuthTestClient().completeEmailLink(token, "someone.else@example.test");
    expect(wrong.headers.get("location")).toBe(`${APP}/signup?error=Verification`);
    const junk = await new AuthTestClient().completeEmailLink(token, "not an address");
    expect(junk.headers.get("location")).toBe(`${APP}/signup?error=Verification`);
    const otherDevice = new AuthTestClient();
    const done = await otherDevice.completeEmailLink(token, ` ${email} `);
    expect(done.headers.get("location")).toBe(`${APP}/signup?complete=1`);
    expect((await statusWith(otherDevice)).status).toBe(200);
  });

  it("refuses a cross-site completion (login CSRF)", async () => {
    const email = freshAddress();
    const client = new AuthTestClient();
    const token = tokenOf(await requestLink(client, email));
    const res = await client.completeEmailLink(token, email, { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await testDb.db.verificationToken.count({ where: { identifier: email } })).toBe(1);
  });
});

describe("asking for a link", () => {
  it("is limited to 5 an hour per address, with a clear 429; other addresses are unaffected", async () => {
    const email = freshAddress();
    const client = new AuthTestClient();
    for (let i = 0; i < 5; i++) {
      const res = await client.requestEmailLink(i % 2 ? email.toUpperCase() : email);
      expect(res.status).toBe(200);
    }
    const refused = await client.requestEmailLink(email);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect((await refused.json()).error).toMatch(/^Too many sign-in e-mails were requested for this address\. Try again in \d+ minutes\.$/);
    expect((await client.requestEmailLink(freshAddress())).status).toBe(200);
  });

  it("counts plus-address, case and Gmail dot variants of one mailbox together (docs/issues.md #10)", async () => {
    const stamp = `${Date.now()}${++counter}`;
    const variants = [`mbx${stamp}@example.test`, `MBX${stamp}+a@example.test`, `mbx${stamp}+b@Example.Test`, `Mbx${stamp}+news@example.test`, `mbx${stamp}+x+y@example.test`];
    const client = new AuthTestClient();
    for (const email of variants) expect((await client.requestEmailLink(email)).status).toBe(200);
    const refused = await client.requestEmailLink(`mbx${stamp}+again@example.test`);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatch(/for this address/);
    // Gmail ignores dots and answers to googlemail.com as well.
    const gmail = [`g.m.${stamp}@gmail.com`, `gm${stamp}@googlemail.com`, `G.M${stamp}+t@gmail.com`, `gm.${stamp}@gmail.com`, `gm${stamp}@gmail.com`];
    for (const email of gmail) expect((await client.requestEmailLink(email)).status).toBe(200);
    expect((await client.requestEmailLink(`g.m${stamp}@gmail.com`)).status).toBe(429);
    // Elsewhere dots tell people apart.
    expect((await client.requestEmailLink(`mb.x${stamp}@example.test`)).status).toBe(200);
  });

  it("counts an IPv6 client by its /64 for the per-client limit (docs/issues.md #22)", async () => {
    process.env.EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR = "2";
    resetConfigForTests();
    try {
      const net = `2001:db8:${Date.now().toString(16).slice(-4)}:22`;
      expect((await new AuthTestClient(`${net}::1`).requestEmailLink(freshAddress())).status).toBe(200);
      expect((await new AuthTestClient(`${net}:aaaa::2`).requestEmailLink(freshAddress())).status).toBe(200);
      // A third address of the same /64 is the same client: refused.
      expect((await new AuthTestClient(`${net}:ffff:ffff:ffff:3`).requestEmailLink(freshAddress())).status).toBe(429);
      // The next /64 is another client.
      expect((await new AuthTestClient(`${net.slice(0, -2)}23::1`).requestEmailLink(freshAddress())).status).toBe(200);
    } finally {
      delete process.env.EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR;
      resetConfigForTests();
    }
  });

  it("is limited per client address too, whatever X-Forwarded-For says (docs/issues.md #10)", async () => {
    process.env.EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR = "3";
    resetConfigForTests();
    try {
      const client = new AuthTestClient("198.51.100.77");
      for (let i = 0; i < 3; i++) {
        const res = await client.call("signin/email", {
          form: { email: freshAddress(), csrfToken: await client.csrfToken(), json: "true" },
          headers: { "x-forwarded-for": `203.0.113.${i}` },
        });
        expect(res.status).toBe(200);
      }
      const refused = await client.requestEmailLink(freshAddress());
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
      expect((await refused.json()).error).toMatch(/^Too many sign-in e-mails were requested from your network\. Try again in \d+ minutes\.$/);
      // Another client is unaffected.
      expect((await new AuthTestClient().requestEmailLink(freshAddress())).status).toBe(200);
    } finally {
      delete process.env.EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR;
      resetConfigForTests();
    }
  });

  it("refuses an invalid address with 400 and a missing CSRF token with 403, sending nothing", async () => {
    const client = new AuthTestClient();
    const before = smtp.messages.length;
    const invalid = await client.requestEmailLink("not-an-address");
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error).toBe("Enter a valid e-mail address.");
    const noCsrf = await client.call("signin/email", { form: { email: freshAddress(), json: "true" } });
    expect(noCsrf.status).toBe(403);
    expect(smtp.messages.length).toBe(before);
  });

  it("refuses a cross-site request", async () => {
    const client = new AuthTestClient();
    const csrfToken = await client.csrfToken();
    const res = await client.call("signin/email", {
      form: { email: freshAddress(), csrfToken, json: "true" },
      headers: { Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
  });

  it("answers 502 when the mail server refuses, without leaking details", async () => {
    process.env.EMAIL_SERVER = "smtp://127.0.0.1:9";
    resetConfigForTests();
    try {
      const res = await new AuthTestClient().requestEmailLink(freshAddress());
      expect(res.status).toBe(502);
      expect((await res.json()).error).toBe("The sign-in e-mail could not be sent. Please try again later.");
    } finally {
      process.env.EMAIL_SERVER = smtp.url;
      resetConfigForTests();
    }
  });

  it("in production without EMAIL_SERVER, answers 503 with a clear message", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      NODE_ENV: "production",
      NEXTAUTH_SECRET: "x".repeat(40),
      LLM_BASE_URL: "http://127.0.0.1:9/v1",
    });
    delete process.env.EMAIL_SERVER;
    resetConfigForTests();
    try {
      const client = new AuthTestClient();
      const res = await client.call("signin/email", { form: { email: freshAddress(), csrfToken: "x", json: "true" } });
      expect(res.status).toBe(503);
      expect((await res.json()).error).toBe("E-mail sign-in is not available on this server. Continue with Google instead.");
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      resetConfigForTests();
    }
  });
});

describe("in development without a mail server (docs/issues.md #23)", () => {
  it("answers the logged link to the browser that asked, once, and never with a mail server", async () => {
    delete process.env.EMAIL_SERVER;
    resetConfigForTests();
    try {
      const email = freshAddress();
      const res = await new AuthTestClient().requestEmailLink(email);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { ok: true; dev_sign_in_link?: string };
      const link = new URL(body.dev_sign_in_link!);
      expect(link.origin + link.pathname).toBe(`${APP}/signup`);
      expect(link.searchParams.get("token")).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      process.env.EMAIL_SERVER = smtp.url;
      resetConfigForTests();
    }
    // With SMTP (as in production) the answer is only { ok: true }: the link goes by e-mail alone.
    const since = Date.now();
    const email = freshAddress();
    const res = await new AuthTestClient().requestEmailLink(email);
    expect(await res.json()).toEqual({ ok: true });
    await smtp.waitForMail(email, { since });
  });
});
