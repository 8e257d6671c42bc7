import "server-only";
import { rawRows } from "@/lib/server/db/client";
import { Prisma } from "@/lib/server/db/generated/prisma/client";
import { liveSessionSql, type SessionRow } from "@/lib/server/db/sessions";
import { quotaIncrementSql, SEARCH_KEY_SUFFIX, userQuotaKeySql } from "@/lib/server/db/quota-sql";

/** Everything a signed-in send needs before the model is called, in one SQL statement (docs/product.md §6, §8). */

export interface ChatPreconditionInput {
  who: { sessionTokenHash: string } | { userId: string };
  chatId: string | null;
  /** So the rule has one home (lib/server/plans.ts). */
  proStatuses: readonly string[];
  needsPro: boolean;
  /** Null: check only. */
  quota: { day: string; freeLimit: number; proLimit: number; searchFreeLimit?: number; searchProLimit?: number } | null;
  search?: boolean;
  now: Date;
}

export interface ChatPreconditions {
  user: { id: string; email: string | null; deletedAt: Date | null } | null;
  /** For acceptSessionRow; null for a bearer or no live session. */
  session: SessionRow | null;
  plan: "Free" | "Pro";
  ownsChat: boolean;
  counted: number | null;
  searched: boolean;
}

interface Row {
  id: string;
  email: string | null;
  deleted_at: Date | null;
  session_id: string | null;
  session_expires: Date | null;
  session_created_at: Date | null;
  is_pro: boolean;
  owns: boolean;
  counted: number | null;
  searched: number | null;
}

export async function loadChatPreconditions(input: ChatPreconditionInput): Promise<ChatPreconditions> {
  const q = input.quota;
  // The casts pin types for PostgreSQL and PGlite alike.
  const live =
    "sessionTokenHash" in input.who
      ? liveSessionSql(input.who.sessionTokenHash, input.now)
      : Prisma.sql`SELECT NULL::text AS id, ${input.who.userId}::text AS user_id, NULL::timestamptz AS expires, NULL::timestamptz AS created_at`;
  const rows = await rawRows<Row>(Prisma.sql`
    WITH live AS (${live}),
    gate AS (
      SELECT u.id, u.email, u.deleted_at,
        live.id AS session_id, live.expires AS session_expires, live.created_at AS session_created_at,
        COALESCE((SELECT sub.status = ANY(string_to_array(${input.proStatuses.join(",")}::text, ','))
                  FROM subscriptions sub WHERE sub.user_id = u.id), false) AS is_pro,
        (${input.chatId}::uuid IS NULL OR EXISTS (
           SELECT 1 FROM chats c WHERE c.id = ${input.chatId}::uuid AND c.user_id = u.id)) AS owns
      FROM live JOIN users u ON u.id = live.user_id
    ),
    counted AS (${
      q
        ? quotaIncrementSql({
            key: userQuotaKeySql(Prisma.sql`gate.id`),
            day: q.day,
            limit: Prisma.sql`(SELECT CASE WHEN gate.is_pro THEN ${q.proLimit}::int ELSE ${q.freeLimit}::int END FROM gate)`,
            from: Prisma.sql`FROM gate WHERE gate.deleted_at IS NULL AND gate.owns AND (gate.is_pro OR NOT ${input.needsPro}::boolean)`,
          })
        : Prisma.sql`SELECT NULL::int AS count WHERE false`
    }),
    searched AS (${
      q && input.search
        ? quotaIncrementSql({
            key: Prisma.sql`(${userQuotaKeySql(Prisma.sql`gate.id`)} || ${SEARCH_KEY_SUFFIX}::text)`,
            day: q.day,
            limit: Prisma.sql`(SELECT CASE WHEN gate.is_pro THEN ${q.searchProLimit ?? 0}::int ELSE ${q.searchFreeLimit ?? 0}::int END FROM gate)`,
            // Only a counted send counts its search.
            from: Prisma.sql`FROM gate, counted`,
          })
        : Prisma.sql`SELECT NULL::int AS count WHERE false`
    })
    SELECT gate.*, (SELECT count FROM counted) AS counted, (SELECT count FROM searched) AS searched FROM gate`);
  const row = rows[0];
  if (!row) return { user: null, session: null, plan: "Free", ownsChat: false, counted: null, searched: false };
  const user = { id: row.id, email: row.email, deletedAt: row.deleted_at };
  return {
    user,
    session:
      row.session_id && row.session_expires && row.session_created_at
        ? { id: row.session_id, expires: row.session_expires, createdAt: row.session_created_at, user }
        : null,
    plan: row.is_pro ? "Pro" : "Free",
    ownsChat: row.owns,
    counted: row.counted === null ? null : Number(row.counted),
    searched: row.searched !== null,
  };
}
