import "server-only";
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { getDb, getPool, rawRows } from "@/lib/server/db/client";
import { Prisma } from "@/lib/server/db/generated/prisma/client";
import { logger } from "@/lib/server/log";
import type { CounterTable, WriteBehindCounts } from "@/lib/server/quota-write-behind";
import { redisWithSearch } from "@/lib/server/search/quota";
import { quotaAddSql, quotaIncrementSql, SEARCH_KEY_SUFFIX, VISITOR_KEY_PREFIX } from "@/lib/server/db/quota-sql";

/** Where lib/server/quota.ts keeps counters: database, Redis, visitors in memory, Redis with database fallback. */

/** 0 refused, 1 counted, 2 counted with one search. */
export type Counted = 0 | 1 | 2;

export interface QuotaStore {
  /** Add one to `key` for `day` unless it reached `limit` (and one search unless `searchLimit` is reached). */
  increment(key: string, day: string, limit: number, searchLimit?: number): Promise<Counted>;
  add(key: string, day: string, amount: number, limit: number): Promise<boolean>;
  /** Counting nothing; 0 when none. */
  read(key: string, day: string): Promise<number>;
  salt(day: string): Promise<Buffer>;
}


export const databaseStore: QuotaStore = {
  async increment(key, day, limit, searchLimit) {
    // Through node-postgres as a prepared statement: cheaper per turn than Prisma.
    const turn = quotaIncrementSql({ key: Prisma.sql`${key}::text`, day, limit: Prisma.sql`${limit}::int` });
    if (!searchLimit) {
      const rows = await rawRows<{ count: number }>(turn);
      return rows.length > 0 && rows[0]!.count <= limit ? 1 : 0;
    }
    const search = quotaIncrementSql({ key: Prisma.sql`${key + SEARCH_KEY_SUFFIX}::text`, day, limit: Prisma.sql`${searchLimit}::int`, from: Prisma.sql`FROM turn` });
    const rows = await rawRows<{ turn: number | null; search: number | null }>(
      Prisma.sql`WITH turn AS (${turn}), search AS (${search}) SELECT (SELECT count FROM turn) AS turn, (SELECT count FROM search) AS search`,
    );
    if (rows[0]?.turn == null) return 0;
    return rows[0].search == null ? 1 : 2;
  },
  async add(key, day, amount, limit) {
    return (await rawRows<{ count: number }>(quotaAddSql({ key, day, amount, limit }))).length > 0;
  },
  read: (key, day) => counterTable.read(key, day),
  async salt(day) {
    const db = await getDb();
    await db.$executeRaw`INSERT INTO quota_salts (day, salt) VALUES (${day}, ${randomBytes(32)}) ON CONFLICT (day) DO NOTHING`;
    const row = await db.quotaSalt.findUnique({ where: { day } });
    if (!row) throw new Error("quota salt missing");
    // Yesterday's salt stays for sends that straddle midnight.
    const cutoff = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await db.quotaSalt.deleteMany({ where: { day: { lt: cutoff } } });
    await db.quotaCounter.deleteMany({ where: { day: { lt: cutoff } } });
    return Buffer.from(row.salt);
  },
};

export const counterTable: CounterTable = {
  async read(key, day) {
    const pool = await getPool();
    const { rows } = await pool.query<{ count: number }>("SELECT count FROM quota_counters WHERE subject = $1 AND day = $2", [key, day]);
    return rows[0]?.count ?? 0;
  },
  async write(rows) {
    const pool = await getPool();
    await pool.query(
      `INSERT INTO quota_counters (subject, day, count)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[])
       ON CONFLICT (subject, day) DO UPDATE SET count = GREATEST(quota_counters.count, EXCLUDED.count)`,
      [rows.map((r) => r.key), rows.map((r) => r.day), rows.map((r) => r.count)],
    );
  },
};

export function visitorsInMemory(visitors: WriteBehindCounts): QuotaStore {
  return {
    async increment(key, day, limit, searchLimit) {
      if (!key.startsWith(VISITOR_KEY_PREFIX)) return databaseStore.increment(key, day, limit, searchLimit);
      if (!(await visitors.increment(key, day, limit))) return 0;
      return searchLimit && (await visitors.increment(key + SEARCH_KEY_SUFFIX, day, searchLimit)) ? 2 : 1;
    },
    add(key, day, amount, limit) {
      return key.startsWith(VISITOR_KEY_PREFIX) ? visitors.increment(key, day, limit, amount) : databaseStore.add(key, day, amount, limit);
    },
    read(key, day) {
      return key.startsWith(VISITOR_KEY_PREFIX) ? visitors.count(key, day) : databaseStore.read(key, day);
    },
    salt: (day) => databaseStore.salt(day),
  };
}

export const INCREMENT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
if c > tonumber(ARGV[1]) then return 0 end
return c`;

const ADD_SCRIPT = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c + tonumber(ARGV[3]) > tonumber(ARGV[1]) then return 0 end
c = redis.call('INCRBY', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return c`;

export function redisStore(redis: Redis): QuotaStore {
  return {
    async increment(key, day, limit, searchLimit) {
      if (searchLimit) return (await redisWithSearch(redis, key, day, limit, searchLimit, null)) as Counted;
      const result = await redis.eval(INCREMENT_SCRIPT, 1, `hush:quota:${day}:${key}`, limit, 2 * 86_400);
      return Number(result) > 0 ? 1 : 0;
    },
    async add(key, day, amount, limit) {
      return Number(await redis.eval(ADD_SCRIPT, 1, `hush:quota:${day}:${key}`, limit, 2 * 86_400, amount)) > 0;
    },
    async read(key, day) {
      return Number((await redis.get(`hush:quota:${day}:${key}`)) ?? 0);
    },
    async salt(day) {
      const name = `hush:quota-salt:${day}`;
      await redis.set(name, randomBytes(32).toString("base64"), "EX", 2 * 86_400, "NX");
      const value = await redis.get(name);
      if (!value) throw new Error("quota salt missing");
      return Buffer.from(value, "base64");
    },
  };
}

let lastRedisWarning = 0;
/** At most one line per 10 s, so an outage does not flood the log. */
export function warnRedisDown(error: unknown): void {
  if (Date.now() - lastRedisWarning < 10_000) return;
  lastRedisWarning = Date.now();
  logger("quota").error({ err: error instanceof Error ? error.message : "unknown" }, "Redis unavailable; counting in the database");
}

/** `primary` (Redis), and `fallback` (the database) for each call Redis cannot answer. */
export function withFallback(primary: QuotaStore, fallback: QuotaStore): QuotaStore {
  return {
    async increment(key, day, limit, searchLimit) {
      try {
        return await primary.increment(key, day, limit, searchLimit);
      } catch (error) {
        warnRedisDown(error);
        return fallback.increment(key, day, limit, searchLimit);
      }
    },
    async add(key, day, amount, limit) {
      try {
        return await primary.add(key, day, amount, limit);
      } catch (error) {
        warnRedisDown(error);
        return fallback.add(key, day, amount, limit);
      }
    },
    async read(key, day) {
      try {
        return await primary.read(key, day);
      } catch (error) {
        warnRedisDown(error);
        return fallback.read(key, day);
      }
    },
    async salt(day) {
      try {
        return await primary.salt(day);
      } catch (error) {
        warnRedisDown(error);
        return fallback.salt(day);
      }
    },
  };
}
