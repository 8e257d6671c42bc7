import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as secondsLeft } from "@/app/api/audio/seconds/route";
import { POST as transcribe } from "@/app/api/audio/transcriptions/route";
import { getConfig } from "@/lib/server/config";
import { flushQuota, utcDay } from "@/lib/server/quota";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { setEnv } from "../helpers/env";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";

/**
 * GET /api/audio/seconds (docs/issues.md #52): the day's dictation seconds left, read from the counter the real
 * transcription route adds to (against the fake Groq server of tests/helpers/fake-llm-server.ts), counting nothing.
 * Visitors (their in-memory counts on PGlite, written behind to the database) and signed-in users (the database).
 */
let t: TestDb;
let stt: FakeLlmServer;
const BASIC = "llama3-8b-8192";

function origin(): string {
  return new URL(getConfig().APP_URL).origin;
}

async function left(cookie?: string): Promise<{ status: number; body: unknown; cache: string | null }> {
  const res = await secondsLeft(new Request(`${origin()}/api/audio/seconds`, { headers: cookie ? { Cookie: cookie } : {} }));
  return { status: res.status, body: await res.json(), cache: res.headers.get("cache-control") };
}

async function dictated(seconds: number, cookie?: string): Promise<number> {
  const headers: Record<string, string> = { Origin: origin(), "Content-Type": "audio/webm" };
  if (cookie) headers.Cookie = cookie;
  const res = await transcribe(new Request(`${origin()}/api/audio/transcriptions?model=${BASIC}&seconds=${seconds}`, { method: "POST", headers, body: new Uint8Array(500).fill(3) }));
  return res.status;
}

beforeAll(async () => {
  stt = await startFakeLlmServer();
  t = await setupTestDb();
  setEnv({ STT_PROVIDER: "groq", STT_BASE_URL: stt.url, STT_API_KEY: "stt-test", STT_SECONDS_PER_DAY_VISITOR: "10", STT_SECONDS_PER_DAY_FREE: "30", STT_SECONDS_PER_DAY_PRO: "90" });
});

afterAll(async () => {
  await t.cleanup();
  await stt.close();
  setEnv({ STT_PROVIDER: undefined, STT_BASE_URL: undefined, STT_API_KEY: undefined, STT_SECONDS_PER_DAY_VISITOR: undefined, STT_SECONDS_PER_DAY_FREE: undefined, STT_SECONDS_PER_DAY_PRO: undefined });
});

describe("GET /api/audio/seconds (docs/issues.md #52)", () => {
  it("a visitor: the day's seconds, less what was dictated, down to 0 once they are used up; reading counts nothing", async () => {
    expect(await left()).toEqual({ status: 200, body: { limit_seconds: 10, remaining_seconds: 10 }, cache: "private, no-store" });
    expect(await dictated(6)).toBe(200);
    expect((await left()).body).toEqual({ limit_seconds: 10, remaining_seconds: 4 });
    expect((await left()).body).toEqual({ limit_seconds: 10, remaining_seconds: 4 });
    // Refused past the limit: nothing counted, the same seconds left.
    expect(await dictated(5)).toBe(429);
    expect((await left()).body).toEqual({ limit_seconds: 10, remaining_seconds: 4 });
    expect(await dictated(4)).toBe(200);
    expect((await left()).body).toEqual({ limit_seconds: 10, remaining_seconds: 0 });
    // The counts written behind are the database's: 10 under one visitor key of today.
    await flushQuota();
    const rows = await t.db.quotaCounter.findMany({ where: { day: utcDay(), subject: { startsWith: "v:", endsWith: ":stt" } } });
    expect(rows.map((r) => r.count)).toEqual([10]);
  });

  it("a signed-in user: their plan's seconds on the database counter, each user their own", async () => {
    const user = await createTestUser(`seconds-${Math.random().toString(36).slice(2)}@example.com`);
    const cookie = await sessionCookieFor(user.id);
    expect((await left(cookie)).body).toEqual({ limit_seconds: 30, remaining_seconds: 30 });
    expect(await dictated(7, cookie)).toBe(200);
    expect((await left(cookie)).body).toEqual({ limit_seconds: 30, remaining_seconds: 23 });
    const row = await t.db.quotaCounter.findUnique({ where: { subject_day: { subject: `u:${user.id}:stt`, day: utcDay() } } });
    expect(row?.count).toBe(7);
    // The counter as the database holds it (another instance's dictation): read as it is, never below 0.
    await t.db.quotaCounter.update({ where: { subject_day: { subject: `u:${user.id}:stt`, day: utcDay() } }, data: { count: 45 } });
    expect((await left(cookie)).body).toEqual({ limit_seconds: 30, remaining_seconds: 0 });

    const pro = await createTestUser(`seconds-pro-${Math.random().toString(36).slice(2)}@example.com`);
    await t.db.subscription.create({ data: { userId: pro.id, status: "active", stripeCustomerId: "cus_s", stripeSubscriptionId: "sub_s" } });
    expect((await left(await sessionCookieFor(pro.id))).body).toEqual({ limit_seconds: 90, remaining_seconds: 90 });
  });
});
