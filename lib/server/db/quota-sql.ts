import "server-only";
import { Prisma } from "@/lib/server/db/generated/prisma/client";

/**
 * The daily counters' keys and their one SQL statement, shared by the quota (lib/server/quota.ts) and the
 * signed-in turn's precondition statement (lib/server/db/chat-preconditions.ts), which counts a send inside it.
 */

/** Who is sending: a visitor's client key (lib/server/client-address.ts clientKey: IPv4 address or IPv6 /64; null: unknown, all counted together), or a user and their plan. */
export type QuotaSubject = { kind: "visitor"; address: string | null } | { kind: "user"; userId: string; plan: "Free" | "Pro" };

const USER_KEY_PREFIX = "u:";
export const VISITOR_KEY_PREFIX = "v:";

/** The counter key of a user: "u:<user id>" (visitors: keyFor). */
export function userQuotaKey(userId: string): string {
  return `${USER_KEY_PREFIX}${userId}`;
}

/** userQuotaKey in SQL, for a statement that knows the user id only as a column (`idColumn`). */
export function userQuotaKeySql(idColumn: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${USER_KEY_PREFIX}::text || ${idColumn})`;
}

/**
 * The database counter's one statement: add one to (`key`, `day`) unless the count already reached
 * `limit`; RETURNING the new count, no row when refused. The row lock taken by ON CONFLICT serialises
 * concurrent sends of one subject, so of N concurrent sends at the limit exactly the remainder is
 * admitted. `from` (optional) is a FROM ... WHERE ... clause the key and limit may refer to, and that
 * gates the insert (lib/server/db/chat-preconditions.ts counts a send only when its checks pass). Used as is
 * or as a data-modifying CTE.
 */
export function quotaIncrementSql(input: { key: Prisma.Sql; day: string; limit: Prisma.Sql; from?: Prisma.Sql }): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO quota_counters (subject, day, count)
    SELECT ${input.key}, ${input.day}::text, 1 ${input.from ?? Prisma.empty}
    ON CONFLICT (subject, day) DO UPDATE SET count = quota_counters.count + 1
    WHERE quota_counters.count < ${input.limit}
    RETURNING count`;
}

/** Appended to a turn's counter key for its searches: "u:<id>:search", "v:<digest>:search". */
export const SEARCH_KEY_SUFFIX = ":search";

/**
 * quotaIncrementSql for an amount (docs/issues.md #52: seconds of dictated audio): add `amount` to (`key`, `day`)
 * unless the count would pass `limit`; RETURNING the new count, no row when refused. Serialised by the same row lock.
 */
export function quotaAddSql(input: { key: string; day: string; amount: number; limit: number }): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO quota_counters (subject, day, count)
    SELECT ${input.key}::text, ${input.day}::text, ${input.amount}::int WHERE ${input.amount}::int <= ${input.limit}::int
    ON CONFLICT (subject, day) DO UPDATE SET count = quota_counters.count + ${input.amount}::int
    WHERE quota_counters.count + ${input.amount}::int <= ${input.limit}::int
    RETURNING count`;
}

/** Appended to a subject's counter key for its seconds of dictated audio (docs/issues.md #52): "u:<id>:stt". */
export const STT_KEY_SUFFIX = ":stt";
