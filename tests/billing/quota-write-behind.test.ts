import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { resetConfigForTests } from "../helpers/process-state";
import { isAppError } from "@/lib/shared/errors";
import { closeQuota, consumeQuota, flushQuota } from "@/lib/server/quota";
import { writeBehindCounts, type CounterTable } from "@/lib/server/quota-write-behind";
import { setupTestDb, type TestDb } from "../db/setup-db";

/**
 * Visitors counted in memory and written behind (lib/server/quota-write-behind.ts; docs/issues.md #24), on the
 * embedded PGlite database it is used with: exact at the limit, no statement once a visitor is known,
 * the counts in quota_counters after a flush and after closing, and read back by the next process state.
 * With DATABASE_URL (PostgreSQL, several instances) visitors are counted by the database itself.
 */
let t: TestDb;
const VISITOR_LIMIT = 5;

beforeAll(async () => {
  t = await setupTestDb();
  delete process.env.REDIS_URL;
  process.env.QUOTA_VISITOR_PER_DAY = String(VISITOR_LIMIT);
  await closeQuota();
  resetConfigForTests();
});

afterAll(async () => {
  delete process.env.QUOTA_VISITOR_PER_DAY;
  await closeQuota();
  resetConfigForTests();
  await t.cleanup();
});

async function burst(address: string, n: number): Promise<number> {
  const results = await Promise.allSettled(Array.from({ length: n }, () => consumeQuota({ kind: "visitor", address })));
  for (const r of results) if (r.status === "rejected" && !isAppError(r.reason, "rate_limited:quota")) throw r.reason;
  return results.filter((r) => r.status === "fulfilled").length;
}

const visitorRows = async () =>
  (await t.db.$queryRawUnsafe<{ count: number }[]>(`SELECT count FROM quota_counters WHERE subject LIKE 'v:%' ORDER BY count`)).map((r) => r.count);

describe("visitors' counts on embedded PGlite", () => {
  it.runIf(!process.env.DATABASE_URL)("admit exactly the limit, write it behind, and keep it across a restart", async () => {
    expect(await burst("198.51.100.20", 12)).toBe(VISITOR_LIMIT);
    await flushQuota();
    expect(await visitorRows()).toEqual([VISITOR_LIMIT]);
    // A new process state (as after a restart) reads the stored count: no new allowance.
    await closeQuota();
    resetConfigForTests();
    expect(await burst("198.51.100.20", 3)).toBe(0);
    // Another visitor: 2 sends, written by close() (the shutdown's order: before the database closes).
    expect(await burst("198.51.100.21", 2)).toBe(2);
    await closeQuota();
    expect(await visitorRows()).toEqual([2, VISITOR_LIMIT]);
  });

  it.runIf(!process.env.DATABASE_URL)("send no statement once the visitor's count is known", async () => {
    let statements = 0;
    const query = pg.Client.prototype.query;
    await consumeQuota({ kind: "visitor", address: "198.51.100.30" });
    await flushQuota();
    pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
      statements++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      await consumeQuota({ kind: "visitor", address: "198.51.100.30" });
      await consumeQuota({ kind: "visitor", address: "198.51.100.30" });
      expect(statements).toBe(0);
      await flushQuota();
      // Both sends in one statement.
      expect(statements).toBe(1);
    } finally {
      pg.Client.prototype.query = query;
    }
  });

  it.runIf(!!process.env.DATABASE_URL)("PostgreSQL counts visitors in the database at once", async () => {
    expect(await burst("198.51.100.40", 7)).toBe(VISITOR_LIMIT);
    expect(await visitorRows()).toContain(VISITOR_LIMIT);
  });
});

describe("writeBehindCounts", () => {
  /** A table in memory that can be told to fail its next writes. */
  function table(): CounterTable & { rows: Map<string, number>; failures: number; reads: number } {
    const rows = new Map<string, number>();
    return {
      rows,
      failures: 0,
      reads: 0,
      async read(key, day) {
        this.reads++;
        return rows.get(`${day} ${key}`) ?? 0;
      },
      async write(batch) {
        if (this.failures > 0) {
          this.failures--;
          throw new Error("database unavailable");
        }
        for (const r of batch) rows.set(`${r.day} ${r.key}`, Math.max(rows.get(`${r.day} ${r.key}`) ?? 0, r.count));
      },
    };
  }

  it("reads a key once even for concurrent first sends, and starts from the stored count", async () => {
    const store = table();
    store.rows.set("2026-11-26 v:a", 3);
    const counts = writeBehindCounts(store, 10_000);
    const admitted = await Promise.all(Array.from({ length: 5 }, () => counts.increment("v:a", "2026-11-26", 5)));
    expect(admitted.filter(Boolean)).toHaveLength(2);
    expect(store.reads).toBe(1);
    await counts.close();
    expect(store.rows.get("2026-11-26 v:a")).toBe(5);
  });

  it("count() reads a key's stored count once, then the count in memory, and counts nothing", async () => {
    const store = table();
    store.rows.set("2026-11-26 v:s:stt", 4);
    const counts = writeBehindCounts(store, 10_000);
    expect(await counts.count("v:s:stt", "2026-11-26")).toBe(4);
    expect(await counts.increment("v:s:stt", "2026-11-26", 10, 3)).toBe(true);
    expect(await counts.count("v:s:stt", "2026-11-26")).toBe(7);
    expect(await counts.count("v:none", "2026-11-26")).toBe(0);
    expect(store.reads).toBe(2);
    await counts.close();
    expect(store.rows.get("2026-11-26 v:s:stt")).toBe(7);
    expect(store.rows.has("2026-11-26 v:none")).toBe(false);
  });

  it("keeps counts that failed to write and writes them with the next flush", async () => {
    const store = table();
    const counts = writeBehindCounts(store, 10_000);
    await counts.increment("v:b", "2026-11-26", 9);
    store.failures = 1;
    await counts.flush();
    expect(store.rows.has("2026-11-26 v:b")).toBe(false);
    await counts.increment("v:b", "2026-11-26", 9);
    await counts.flush();
    expect(store.rows.get("2026-11-26 v:b")).toBe(2);
  });

  it("writes on its own after flushMs", async () => {
    const store = table();
    const counts = writeBehindCounts(store, 20);
    await counts.increment("v:c", "2026-11-26", 9);
    await expect.poll(() => store.rows.get("2026-11-26 v:c"), { timeout: 2000 }).toBe(1);
    await counts.close();
  });

  it("forgets days before yesterday once written", async () => {
    const store = table();
    const counts = writeBehindCounts(store, 10_000);
    await counts.increment("v:d", "2026-11-20", 9);
    await counts.flush();
    await counts.increment("v:d", "2026-11-26", 9);
    // The old day is read again from the table, not from memory: a change there shows.
    store.rows.set("2026-11-20 v:d", 9);
    expect(await counts.increment("v:d", "2026-11-20", 9)).toBe(false);
    await counts.close();
  });
});
