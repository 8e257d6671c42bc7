import "server-only";
import { Prisma } from "@/lib/server/db/generated/prisma/client";

/** The daily counters' keys and SQL. */

/** A visitor's client key (null: unknown, counted together), or a user and their plan. */
export type QuotaSubject = { kind: "visitor"; address: string | null } | { kind: "user"; userId: string; plan: "Free" | "Pro" };

const USER_KEY_PREFIX = "u:";
export const VISITOR_KEY_PREFIX = "v:";

export function userQuotaKey(userId: string): string {
  return `${USER_KEY_PREFIX}${userId}`;
}

export function userQuotaKeySql(idColumn: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${USER_KEY_PREFIX}::text || ${idColumn})`;
}

/** Add one unless `limit` is reached, RETURNING the new count (no row when refused); `from` gates the insert. */
export function quotaIncrementSql(input: { key: Prisma.Sql; day: string; limit: Prisma.Sql; from?: Prisma.Sql }): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO quota_counters (subject, day, count)
    SELECT ${input.key}, ${input.day}::text, 1 ${input.from ?? Prisma.empty}
    ON CONFLICT (subject, day) DO UPDATE SET count = quota_counters.count + 1
    WHERE quota_counters.count < ${input.limit}
    RETURNING count`;
}

export const SEARCH_KEY_SUFFIX = ":search";

/** quotaIncrementSql for an amount (seconds of dictated audio). */
export function quotaAddSql(input: { key: string; day: string; amount: number; limit: number }): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO quota_counters (subject, day, count)
    SELECT ${input.key}::text, ${input.day}::text, ${input.amount}::int WHERE ${input.amount}::int <= ${input.limit}::int
    ON CONFLICT (subject, day) DO UPDATE SET count = quota_counters.count + ${input.amount}::int
    WHERE quota_counters.count + ${input.amount}::int <= ${input.limit}::int
    RETURNING count`;
}

export const STT_KEY_SUFFIX = ":stt";
