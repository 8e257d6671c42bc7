import "server-only";
import { rawRows } from "@/lib/server/db/client";
import { Prisma } from "@/lib/server/db/generated/prisma/client";
import { liveSessionSql, type SessionRow } from "@/lib/server/db/sessions";
import { quotaIncrementSql, SEARCH_KEY_SUFFIX, userQuotaKeySql } from "@/lib/server/db/quota-sql";

/**
 * Everything a signed-in chat send needs before the model is called, in one SQL statement (one
 * database round trip): the live session's user and whether the account is deleted, whether
 * the user's subscription carries Pro, whether `chatId` is the user's, and, when every check passes and
 * `quota` is given, the send counted against today's quota.
 *
 * The statement composes the rules' owners rather than repeating them: the live-session query of
 * lib/server/db/sessions.ts (liveSessionSql; the caller hands the returned session row to
 * acceptSessionRow, which moves the idle deadline forward) and the bounded upsert of lib/server/quota.ts
 * (quotaIncrementSql with userQuotaKeySql, the same key, day and limits as consumeQuota). The count is
 * made only when the session is live, the account is not deleted, the chat is the user's and the plan
 * allows the model: a refused send is never counted (docs/product.md §6, §8).
 */

export interface ChatPreconditionInput {
  /** A session cookie's token hash (lib/server/db/sessions.ts), or a user already authenticated (bearer). */
  who: { sessionTokenHash: string } | { userId: string };
  /** The chat to continue (lowercase UUID), or null for a new chat. */
  chatId: string | null;
  /** Stripe statuses that carry Pro (lib/server/plans.ts), so the rule has one home. */
  proStatuses: readonly string[];
  /** The requested model needs Pro. */
  needsPro: boolean;
  /** Count the send against today's quota (lib/server/quota.ts userQuotaInDatabase); null: check only. */
  quota: { day: string; freeLimit: number; proLimit: number; searchFreeLimit?: number; searchProLimit?: number } | null;
  /** Count one web search with the send, unless today's searches are used up. */
  search?: boolean;
  /** The instant the session's deadlines are checked against. */
  now: Date;
}

export interface ChatPreconditions {
  /** The session's (or bearer's) user; null: no live session. */
  user: { id: string; email: string | null; deletedAt: Date | null } | null;
  /** The live session row with its user, for acceptSessionRow; null for a bearer or no live session. */
  session: SessionRow | null;
  plan: "Free" | "Pro";
  /** `chatId` is null or the user's chat. */
  ownsChat: boolean;
  /** The day's count after this send; null when not counted (over the limit, refused, or check only). */
  counted: number | null;
  /** A web search was counted with the send (asked for, and under the day's search limit). */
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

/** Run the statement (see the module comment). @throws the driver's error */
export async function loadChatPreconditions(input: ChatPreconditionInput): Promise<ChatPreconditions> {
  const q = input.quota;
  // Each ${} a parameter; the casts pin types for PostgreSQL and PGlite alike, and let the statement go
  // straight through node-postgres (rawRows). Every timestamp column here is
  // timestamptz, which node-postgres reads with its zone.
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
            // Only a counted send counts its search (in the same statement as the turn).
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
