import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as chatVisitor } from "@/app/api/ns/chat/route";
import { POST as chatUser } from "@/app/api/ns/chat_user/route";
import { getConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { isAppError, type AppError } from "@/lib/shared/errors";
import { closeQuota, consumeAudioSeconds, consumeQuota, type QuotaSubject } from "@/lib/server/quota";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { fromPeer } from "../helpers/peer";
import { redisAvailable, TEST_REDIS_URL } from "../helpers/redis";

/**
 * Daily quotas (lib/server/quota.ts) in the database (PGlite, or PostgreSQL with DATABASE_URL) and in Redis
 * (TEST_REDIS_URL, default the local 127.0.0.1:6379; skipped when none answers): exact under
 * concurrency, per subject, per plan; and the chat endpoints' 429 / 403.
 */
const REDIS_URL = TEST_REDIS_URL;
const hasRedis = await redisAvailable();

let t: TestDb;
let llm: FakeLlmServer;
const QUOTA_KEYS = ["QUOTA_VISITOR_PER_DAY", "QUOTA_FREE_PER_DAY", "QUOTA_PRO_PER_DAY", "STT_SECONDS_PER_DAY_VISITOR", "STT_SECONDS_PER_DAY_FREE", "REDIS_URL"] as const;

async function configure(env: Partial<Record<(typeof QUOTA_KEYS)[number], string>>) {
  for (const k of QUOTA_KEYS) delete process.env[k];
  Object.assign(process.env, env);
  await closeQuota();
  resetConfigForTests();
}

/** Fire `n` sends at once; count the admitted ones. Any error but the quota's 429 fails the test. */
async function burst(subject: QuotaSubject, n: number): Promise<number> {
  const results = await Promise.allSettled(Array.from({ length: n }, () => consumeQuota(subject)));
  for (const r of results) if (r.status === "rejected" && !isAppError(r.reason, "rate_limited:quota")) throw r.reason;
  return results.filter((r) => r.status === "fulfilled").length;
}

beforeAll(async () => {
  llm = await startFakeLlmServer();
  process.env.LLM_BASE_URL = `${llm.url}/v1`;
  process.env.LLM_API_KEY = "test";
  t = await setupTestDb();
});

afterAll(async () => {
  await configure({});
  await t.cleanup();
  await llm.close();
  delete process.env.LLM_BASE_URL;
  resetConfigForTests();
});

const stores = [
  { name: "database", env: {} as Record<string, string>, skip: false },
  { name: "Redis", env: { REDIS_URL }, skip: !hasRedis },
];

for (const store of stores) {
  describe.skipIf(store.skip)(`quota counters in the ${store.name}`, () => {
    beforeAll(() =>
      configure({ ...store.env, QUOTA_VISITOR_PER_DAY: "7", QUOTA_FREE_PER_DAY: "20", QUOTA_PRO_PER_DAY: "30", STT_SECONDS_PER_DAY_VISITOR: "100", STT_SECONDS_PER_DAY_FREE: "50" }),
    );

    it("dictation seconds (docs/issues.md #52): 50 parallel recordings at the boundary admit exactly what fits, beside the messages", async () => {
      const seconds = async (subject: QuotaSubject, amounts: number[]) => {
        const results = await Promise.allSettled(amounts.map((n) => consumeAudioSeconds(subject, n)));
        for (const r of results) if (r.status === "rejected" && !isAppError(r.reason, "rate_limited:stt_quota")) throw r.reason;
        return results.filter((r) => r.status === "fulfilled").length;
      };
      const user: QuotaSubject = { kind: "user", userId: `s-${randomBytes(6).toString("hex")}`, plan: "Free" };
      expect(await seconds(user, Array(50).fill(3))).toBe(16);
      // 48 of 50 used: 3 more do not fit, 2 do.
      expect(await seconds(user, [3])).toBe(0);
      expect(await seconds(user, [2])).toBe(1);
      // The messages' counter is another.
      await expect(consumeQuota(user)).resolves.toBeUndefined();
      const visitor: QuotaSubject = { kind: "visitor", address: `198.51.${randomBytes(1)[0]}.${randomBytes(1)[0]}` };
      expect(await seconds(visitor, Array(50).fill(7))).toBe(14);
      expect(await seconds(visitor, [2])).toBe(1);
      expect(await seconds(visitor, [1])).toBe(0);
    });

    it("50 parallel sends at the boundary admit exactly the limit", async () => {
      const user: QuotaSubject = { kind: "user", userId: `u-${randomBytes(6).toString("hex")}`, plan: "Free" };
      expect(await burst(user, 50)).toBe(20);
      // Partly used: 50 more at once admit none.
      expect(await burst(user, 50)).toBe(0);
      const other: QuotaSubject = { kind: "user", userId: `u-${randomBytes(6).toString("hex")}`, plan: "Free" };
      await consumeQuota(other);
      await consumeQuota(other);
      expect(await burst(other, 50)).toBe(18);
    });

    it("uses the plan's limit and counts visitors by address", async () => {
      expect(await burst({ kind: "user", userId: `p-${randomBytes(6).toString("hex")}`, plan: "Pro" }, 50)).toBe(30);
      const address = `198.51.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
      expect(await burst({ kind: "visitor", address }, 50)).toBe(7);
      expect(await burst({ kind: "visitor", address: `2001:db8::${randomBytes(2).toString("hex")}` }, 10)).toBe(7);
    });

    it("counts per UTC day and says when the next day starts", async () => {
      const user: QuotaSubject = { kind: "user", userId: `d-${randomBytes(6).toString("hex")}`, plan: "Free" };
      const day1 = new Date("2030-01-01T23:59:30Z");
      for (let i = 0; i < 20; i++) await consumeQuota(user, day1);
      const error = await consumeQuota(user, day1).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "rate_limited:quota", status: 429 });
      expect((error as AppError).headers?.["Retry-After"]).toBe("30");
      await expect(consumeQuota(user, new Date("2030-01-02T00:00:01Z"))).resolves.toBeUndefined();
    });
  });
}

describe("the stored visitor key", () => {
  beforeAll(() => configure({ QUOTA_VISITOR_PER_DAY: "5" }));

  it("is a salted hash: the address appears nowhere in the database", async () => {
    const address = "203.0.113.77";
    await consumeQuota({ kind: "visitor", address });
    const rows = await t.db.quotaCounter.findMany();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(address);
    const salts = await t.db.quotaSalt.findMany();
    expect(salts.map((s) => s.salt.length)).toContain(32);
  });
});

describe("the chat endpoints", () => {
  beforeAll(() => configure({ QUOTA_VISITOR_PER_DAY: "2", QUOTA_FREE_PER_DAY: "2" }));
  const body = (model = "llama3-8b-8192") =>
    JSON.stringify({ messages: [{ role: "user", content: "hi" }], model, file: null, chat_id: null, save_chat: false });

  it("a visitor past the limit gets 429 with Retry-After", async () => {
    const send = () =>
      chatVisitor(
        new Request("http://localhost/api/ns/chat", {
          method: "POST",
          headers: fromPeer("192.0.2.44", { "content-type": "application/json" }),
          body: body(),
        }),
      );
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const over = await send();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("a visitor rotating X-Forwarded-For still hits its limit (docs/issues.md #10: no trusted proxy configured)", async () => {
    let n = 0;
    const send = () =>
      chatVisitor(
        new Request("http://localhost/api/ns/chat", {
          method: "POST",
          headers: fromPeer("192.0.2.45", { "content-type": "application/json", "x-forwarded-for": `198.51.100.${++n}` }),
          body: body(),
        }),
      );
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(429);
    expect((await send()).status).toBe(429);
  });

  it("IPv6 visitors are counted by their /64 (docs/issues.md #22): addresses in one /64 share a quota, another /64 has its own", async () => {
    const send = (peer: string) =>
      chatVisitor(
        new Request("http://localhost/api/ns/chat", {
          method: "POST",
          headers: fromPeer(peer, { "content-type": "application/json" }),
          body: body(),
        }),
      );
    expect((await send("2001:db8:22:64::1")).status).toBe(200);
    expect((await send("2001:db8:22:64:ffff:ffff:ffff:fffe")).status).toBe(200);
    // A third address of the same /64 (any spelling) is past the limit of 2.
    expect((await send("2001:0db8:0022:0064:1234:5678:9abc:def0")).status).toBe(429);
    // The neighbouring /64 is another client.
    expect((await send("2001:db8:22:65::1")).status).toBe(200);
    // IPv4-mapped IPv6 counts as the IPv4 address.
    expect((await send("192.0.2.46")).status).toBe(200);
    expect((await send("::ffff:192.0.2.46")).status).toBe(200);
    expect((await send("192.0.2.46")).status).toBe(429);
  });

  it("answers carrying a message are never cached: JSON and SSE say no-store (docs/issues.md #10)", async () => {
    for (const accept of ["application/json", "text/event-stream"]) {
      const res = await chatVisitor(
        new Request("http://localhost/api/ns/chat", {
          method: "POST",
          headers: fromPeer(`192.0.2.${accept.length}`, { "content-type": "application/json", accept }),
          body: body(),
        }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toMatch(/\bno-store\b/);
      await res.text();
    }
  });

  it("a Free user: the Pro model is refused (403) whatever the client sends, without using the quota; 429 past the limit", async () => {
    const u = await createTestUser();
    const cookie = await sessionCookieFor(u.id);
    const origin = new URL(getConfig().APP_URL).origin;
    const send = (model?: string) =>
      chatUser(new Request(`${origin}/api/ns/chat_user`, { method: "POST", headers: { "content-type": "application/json", cookie, origin }, body: body(model) }));
    expect((await send("llama3-70b-8192")).status).toBe(403);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(429);
    // Pro (granted here directly) lifts the limit to QUOTA_PRO_PER_DAY and allows the Pro model.
    await t.db.subscription.create({ data: { userId: u.id, source: "manual", status: "active" } });
    expect((await send("llama3-70b-8192")).status).toBe(200);
  });
});
