import "server-only";
import { logger } from "@/lib/server/log";

/**
 * Visitors' daily counters held in this process's memory and written behind to the database
 * (no round trip before the model is called), for the one deployment where that is
 * exact: embedded PGlite without Redis. PGlite's folder is opened by one process only (lib/server/db/client.ts),
 * so no other instance counts the same visitors, and the count in memory is the count.
 *
 * - Admission is decided synchronously in memory, so of N concurrent sends at the limit exactly the
 *   remainder is admitted, as with the database's conditional upsert.
 * - A key is read from the database the first time this process sees it (one statement, shared by
 *   concurrent sends of that key); later sends of the day touch no database.
 * - Changed counts are written in one statement at most every `flushMs` (default 100 ms), and by
 *   `close()` (lib/server/startup.ts, before the database closes on shutdown). The write keeps the larger of the
 *   stored and the new count, so a late or repeated write never lowers one.
 * - What a crash can lose: the counts of its last `flushMs`, so a visitor may get that many sends more
 *   than the day's limit after one (docs/scaling.md). A failed write is logged and retried with the next.
 * - Memory: one entry per visitor address counted today or yesterday; older days are dropped.
 */
export interface WriteBehindCounts {
  /** Add `amount` (default one) to (`key`, `day`) unless that would pass `limit`; true when admitted. */
  increment(key: string, day: string, limit: number, amount?: number): Promise<boolean>;
  /** The count of (`key`, `day`) now, counting nothing (read from the database the first time, as increment). */
  count(key: string, day: string): Promise<number>;
  /** Write what is pending now (tests; close). */
  flush(): Promise<void>;
  /** Flush, then stop the timer; later increments still work (and schedule a new write). */
  close(): Promise<void>;
}

export interface CounterTable {
  /** Today's stored count of one key (0 when none). */
  read(key: string, day: string): Promise<number>;
  /** Store these counts, each as max(stored, given), in one statement. */
  write(rows: { key: string; day: string; count: number }[]): Promise<void>;
}

interface Entry {
  count: number;
  /** The count last written to the database. */
  written: number;
}

/**
 * Counters over `table` (lib/server/quota.ts gives it the database's quota_counters), written behind at most
 * every `flushMs` milliseconds (see the module comment for when this is exact).
 * increment() rejects with the table's error when a key's first read fails.
 */
export function writeBehindCounts(table: CounterTable, flushMs = 100): WriteBehindCounts {
  /** day → key → entry. */
  const days = new Map<string, Map<string, Entry>>();
  const loading = new Map<string, Promise<Entry>>();
  let timer: NodeJS.Timeout | null = null;

  const load = (key: string, day: string, counts: Map<string, Entry>): Promise<Entry> => {
    const id = `${day} ${key}`;
    let pending = loading.get(id);
    if (!pending) {
      pending = table.read(key, day).then(
        (stored) => {
          loading.delete(id);
          // Another load of the same key may have finished first (not while this one was pending).
          let entry = counts.get(key);
          if (!entry) counts.set(key, (entry = { count: stored, written: stored }));
          return entry;
        },
        (error: unknown) => {
          loading.delete(id);
          throw error;
        },
      );
      loading.set(id, pending);
    }
    return pending;
  };

  const dropOldDays = (today: string) => {
    // Yesterday stays while sends straddling midnight may still count there (as its salt does).
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    for (const [day, counts] of days) {
      if (day < yesterday && [...counts.values()].every((e) => e.count === e.written)) days.delete(day);
    }
  };

  const writePending = async (): Promise<void> => {
    const rows: { key: string; day: string; count: number; entry: Entry }[] = [];
    for (const [day, counts] of days) for (const [key, entry] of counts) if (entry.count !== entry.written) rows.push({ key, day, count: entry.count, entry });
    if (!rows.length) return;
    try {
      await table.write(rows.map(({ key, day, count }) => ({ key, day, count })));
      for (const row of rows) row.entry.written = Math.max(row.entry.written, row.count);
    } catch (error) {
      logger("quota").error({ err: error instanceof Error ? error.message : "unknown", pending: rows.length }, "visitor counts not written; retrying");
      schedule();
    }
  };

  // One write at a time: a flush asked for during one runs after it (it may carry newer counts).
  // writePending never rejects.
  let chain: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    chain = chain.then(writePending);
    return chain;
  };

  function schedule() {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, flushMs);
    // Pending counts are written by close() on shutdown; the timer alone must not hold the process.
    timer.unref();
  }

  const countsOf = (day: string): Map<string, Entry> => {
    let counts = days.get(day);
    if (!counts) {
      days.set(day, (counts = new Map()));
      dropOldDays(day);
    }
    return counts;
  };

  return {
    async increment(key, day, limit, amount = 1) {
      const counts = countsOf(day);
      const entry = counts.get(key) ?? (await load(key, day, counts));
      if (entry.count + amount > limit) return false;
      entry.count += amount;
      schedule();
      return true;
    },
    async count(key, day) {
      const counts = countsOf(day);
      return (counts.get(key) ?? (await load(key, day, counts))).count;
    },
    flush,
    async close() {
      await flush();
    },
  };
}
