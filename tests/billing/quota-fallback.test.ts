import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../helpers/process-state";
import { closeQuota, consumeQuota } from "@/lib/server/quota";
import { setupTestDb, type TestDb } from "../db/setup-db";

/**
 * Redis unavailable (docs/deploy.md "Redis"): quotas fall back to the database counters, so sends
 * still work and the limit still holds. REDIS_URL points at a port where nothing listens (this
 * helper's range); the database is the real one of setupTestDb.
 */
let t: TestDb;
beforeAll(async () => {
  t = await setupTestDb();
  process.env.REDIS_URL = "redis://127.0.0.1:5599/5";
  process.env.QUOTA_FREE_PER_DAY = "2";
  resetConfigForTests();
});
afterAll(async () => {
  delete process.env.REDIS_URL;
  delete process.env.QUOTA_FREE_PER_DAY;
  await closeQuota();
  resetConfigForTests();
  await t.cleanup();
});

describe("quotas while Redis is down", () => {
  it("count in the database and still refuse past the limit", async () => {
    const subject = { kind: "user", userId: "00000000-0000-4000-8000-00000000f411", plan: "Free" } as const;
    await consumeQuota(subject);
    await consumeQuota(subject);
    await expect(consumeQuota(subject)).rejects.toMatchObject({ code: "rate_limited:quota" });
    const rows = await t.db.$queryRawUnsafe<{ subject: string; count: number }[]>(`SELECT subject, count FROM quota_counters`);
    expect(rows).toEqual([{ subject: `u:${subject.userId}`, count: 2 }]);
  });

  it("count visitors too (under the database's salt of the day)", async () => {
    await consumeQuota({ kind: "visitor", address: "198.51.100.7" });
    const salts = await t.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM quota_salts`);
    expect(salts).toEqual([{ n: 1 }]);
  });
});
