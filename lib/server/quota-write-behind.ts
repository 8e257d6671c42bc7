import "server-only";
import { logger } from "@/lib/server/log";

/**
 * Visitors' counters in memory, written behind (PGlite without Redis: one process owns the folder, so the count is
 * exact); a crash may lose the last `flushMs` of counts (docs/scaling.md).
 */
export interface WriteBehindCounts {
  /** True when admitted. */
  increment(key: string, day: string, limit: number, amount?: number): Promise<boolean>;
  /** The count now, counting nothing (read from the table the first time, as increment). */
  count(key: string, day: string): Promise<number>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface CounterTable {
  read(key: string, day: string): Promise<number>;
  write(rows: { key: string; day: string; count: number }[]): Promise<void>;
}

interface Entry {
  count: number;
  written: number;
}

/** increment() rejects with the table's error when a key's first read fails. */
export function writeBehindCounts(table: CounterTable, flushMs = 100): WriteBehindCounts {
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
    // Yesterday stays while sends straddling midnight may still count there.
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

  // One write at a time.
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
    // The timer alone must not hold the process.
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
