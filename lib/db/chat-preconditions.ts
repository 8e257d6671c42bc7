import "server-only";
import { getDb } from "@/lib/db/client";

/**
 * Everything a signed-in chat send needs before the model is called, in one SQL statement (one
 * database round trip; issue 12): the live session's user and whether the account is deleted, whether
 * the user's subscription carries Pro, whether `chatId` is the user's, and, when every check passes and
 * `quota` is given, the send counted against today's quota.
 *
 * The count is the same bounded upsert as lib/quota.ts's database store (same `u:<user id>` key, same
 * row lock under ON CONFLICT, so N concurrent sends at the limit admit exactly the remainder), done
 * only when the session is live, the account is not deleted, the chat is the user's and the plan
 * allows the model: a refused send is never counted (spec §6, §8).
 */

export interface ChatPreconditionInput {
  /** A session cookie's token hash (lib/auth/session-store.ts), or a user already authenticated (bearer). */
  who: { sessionTokenHash: string } | { userId: string };
  /** The chat to continue (lowercase UUID), or null for a new chat. */
  chatId: string | null;
  /** Stripe statuses that carry Pro (lib/plans.ts), so the rule has one home. */
  proStatuses: readonly string[];
  /** The requested model needs Pro. */
  needsPro: boolean;
  /** Count the send against today's quota (UTC day, limits per plan); null: check only. */
  quota: { day: string; freeLimit: number; proLimit: number } | null;
  /** Sessions whose expiry is not after this instant are dead. */
  now: Date;
}

export interface ChatPreconditions {
  /** The session's (or bearer's) user; null: no live session. */
  user: { id: string; email: string | null; deletedAt: Date | null } | null;
  plan: "Free" | "Pro";
  /** `chatId` is null or the user's chat. */
  ownsChat: boolean;
  /** The day's count after this send; null when not counted (over the limit, refused, or check only). */
  counted: number | null;
}

interface Row {
  id: string;
  email: string | null;
  deleted_at: Date | null;
  is_pro: boolean;
  owns: boolean;
  counted: number | null;
}

/** Run the statement (see the module comment). @throws the driver's error */
export async function loadChatPreconditions(input: ChatPreconditionInput): Promise<ChatPreconditions> {
  const db = await getDb();
  const byToken = "sessionTokenHash" in input.who;
  const key = byToken ? (input.who as { sessionTokenHash: string }).sessionTokenHash : (input.who as { userId: string }).userId;
  const q = input.quota;
  // Prisma binds each ${} as a parameter; the casts pin types for PostgreSQL and PGlite alike.
  const rows = await db.$queryRaw<Row[]>`
    WITH who AS (
      SELECT u.id, u.email, u.deleted_at FROM users u
      WHERE (${byToken}::boolean AND u.id = (
               SELECT s.user_id FROM sessions s
               WHERE s.session_token = ${key}::text AND s.expires > ${input.now.toISOString()}::timestamptz))
         OR (NOT ${byToken}::boolean AND u.id = ${key}::text)
    ),
    gate AS (
      SELECT who.*,
        COALESCE((SELECT sub.status = ANY(string_to_array(${input.proStatuses.join(",")}::text, ','))
                  FROM subscriptions sub WHERE sub.user_id = who.id), false) AS is_pro,
        (${input.chatId}::uuid IS NULL OR EXISTS (
           SELECT 1 FROM chats c WHERE c.id = ${input.chatId}::uuid AND c.user_id = who.id)) AS owns
      FROM who
    ),
    counted AS (
      INSERT INTO quota_counters (subject, day, count)
      SELECT 'u:' || gate.id, ${q?.day ?? ""}::text, 1 FROM gate
      WHERE ${q !== null}::boolean AND gate.deleted_at IS NULL AND gate.owns AND (gate.is_pro OR NOT ${input.needsPro}::boolean)
      ON CONFLICT (subject, day) DO UPDATE SET count = quota_counters.count + 1
      WHERE quota_counters.count < (SELECT CASE WHEN gate.is_pro THEN ${q?.proLimit ?? 0}::int ELSE ${q?.freeLimit ?? 0}::int END FROM gate)
      RETURNING count
    )
    SELECT gate.id, gate.email, gate.deleted_at, gate.is_pro, gate.owns, (SELECT count FROM counted) AS counted FROM gate`;
  const row = rows[0];
  if (!row) return { user: null, plan: "Free", ownsChat: false, counted: null };
  return {
    user: { id: row.id, email: row.email, deletedAt: row.deleted_at },
    plan: row.is_pro ? "Pro" : "Free",
    ownsChat: row.owns,
    counted: row.counted === null ? null : Number(row.counted),
  };
}
