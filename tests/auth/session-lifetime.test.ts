import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "../helpers/process-state";
import { getRequestUser } from "@/lib/server/auth/session";
import { hashSessionToken } from "@/lib/server/db/sessions";
import { closeRateLimits } from "@/lib/server/rate-limit";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { AuthTestClient, tokenOf } from "../helpers/auth-flow";
import { extractSignInLink, startSmtpServer, type TestSmtpServer } from "../helpers/smtp";

/**
 * Session lifetimes (docs/issues.md #10; lib/server/auth/README.md "Session lifetime"), by moving the clock (only
 * Date is faked: the database and the SMTP server keep real timers): an idle timeout
 * (SESSION_IDLE_DAYS, 7) and an absolute end (SESSION_MAX_AGE_DAYS, 30) that no refresh extends,
 * through getRequestUser (every API route and page) and through next-auth's /api/auth/session.
 */
const DAY = 86_400_000;
const APP = "http://localhost:3000";
let t: TestDb;
let smtp: TestSmtpServer;

beforeAll(async () => {
  t = await setupTestDb();
  smtp = await startSmtpServer();
  process.env.EMAIL_SERVER = smtp.url;
  process.env.APP_URL = APP;
  resetConfigForTests();
});

afterAll(async () => {
  delete process.env.EMAIL_SERVER;
  await closeRateLimits();
  await smtp.close();
  await t.cleanup();
});

afterEach(() => {
  vi.useRealTimers();
  delete process.env.SESSION_MAX_AGE_DAYS;
  delete process.env.SESSION_IDLE_DAYS;
  resetConfigForTests();
});

const req = (cookie: string) => new Request(`${APP}/api/x`, { headers: { cookie } });
let start = 0;
/** Fake only Date, starting now; `at(days)` moves the clock to that many days after the start. */
function fakeClock() {
  vi.useFakeTimers({ toFake: ["Date"] });
  start = Date.now();
}
const at = (days: number) => vi.setSystemTime(start + days * DAY);

async function rowOf(cookie: string) {
  return t.db.session.findUniqueOrThrow({ where: { sessionToken: hashSessionToken(cookie.split("=")[1]!.split(";")[0]!) } });
}

describe("the idle timeout", () => {
  it("ends a session unused for SESSION_IDLE_DAYS; each use moves the deadline forward", async () => {
    fakeClock();
    const cookie = await sessionCookieFor((await createTestUser()).id);
    at(6);
    expect(await getRequestUser(req(cookie))).not.toBeNull();
    at(12.9); // 6.9 days after the last use
    expect(await getRequestUser(req(cookie))).not.toBeNull();
    at(19.95); // 7.05 days idle
    expect(await getRequestUser(req(cookie))).toBeNull();
  });
});

describe("the absolute lifetime", () => {
  it("ends a session SESSION_MAX_AGE_DAYS after sign-in however often it is used", async () => {
    fakeClock();
    const cookie = await sessionCookieFor((await createTestUser()).id);
    for (const day of [3, 6, 9, 12, 15, 18, 21, 24, 27, 29.9]) {
      at(day);
      expect(await getRequestUser(req(cookie)), `day ${day}`).not.toBeNull();
      const row = await rowOf(cookie);
      expect(row.expires.getTime()).toBeLessThanOrEqual(row.createdAt.getTime() + 30 * DAY);
    }
    at(30.001);
    expect(await getRequestUser(req(cookie))).toBeNull();
  });

  it("is configurable (SESSION_MAX_AGE_DAYS)", async () => {
    process.env.SESSION_MAX_AGE_DAYS = "2";
    resetConfigForTests();
    fakeClock();
    const cookie = await sessionCookieFor((await createTestUser()).id);
    at(1.5);
    expect(await getRequestUser(req(cookie))).not.toBeNull();
    expect((await rowOf(cookie)).expires.getTime()).toBe((await rowOf(cookie)).createdAt.getTime() + 2 * DAY);
    at(2.01);
    expect(await getRequestUser(req(cookie))).toBeNull();
  });

  it("next-auth's refresh (/api/auth/session) never extends a session past its absolute end", async () => {
    fakeClock();
    const email = `lifetime-${start}@example.test`;
    const client = new AuthTestClient();
    await client.requestEmailLink(email);
    const link = extractSignInLink(await smtp.waitForMail(email, { since: start - 1000 }));
    expect((await client.completeEmailLink(tokenOf(link), email)).status).toBe(302);
    const cookie = client.cookieHeader();
    for (const day of [5, 10, 15, 20, 25, 29.5]) {
      at(day);
      const session = await (await client.call("session")).json();
      expect(session.user, `day ${day}`).toEqual({ email });
      const user = await t.db.user.findUniqueOrThrow({ where: { email } });
      const row = await t.db.session.findFirstOrThrow({ where: { userId: user.id } });
      expect(row.expires.getTime()).toBeLessThanOrEqual(row.createdAt.getTime() + 30 * DAY);
    }
    at(30.01);
    expect(await (await client.call("session")).json()).toEqual({});
    expect(await getRequestUser(req(cookie))).toBeNull();
  });
});
