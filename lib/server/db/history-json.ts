import "server-only";
import { CHAT_BATCH_MAX_BYTES, CHAT_BATCH_MAX_IDS } from "@/lib/shared/chat/history-schema";
import { getPool } from "@/lib/server/db/client";
import type { SessionRow } from "@/lib/server/db/sessions";
import { invalidInput } from "@/lib/server/db/errors";
import { decodeCursor, encodeCursor } from "@/lib/server/db/sealed-chat-reads";
import { LOWERCASE_UUID } from "@/lib/shared/uuid";

/**
 * The history reads of a cookie session as JSON text built by PostgreSQL in one prepared statement, matching
 * lib/server/chat/history.ts chatJson and pageJson except for whitespace.
 */

interface WhoColumns {
  session_id: string;
  expires: Date;
  session_created_at: Date;
  user_id: string;
  email: string | null;
  deleted_at: Date | null;
}

/** $1: the session token's hash, $2: now (ISO). */
const WHO = `WITH who AS (
  SELECT s.id AS session_id, s.expires, s.created_at AS session_created_at, u.id AS user_id, u.email, u.deleted_at
  FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.session_token = $1::text AND s.expires > $2::timestamptz
)`;

const WHO_SQL = `${WHO} SELECT who.* FROM who`;

// One line: PostgreSQL wraps base64 at 76 columns.
const b64 = (column: string) => `replace(encode(${column}, 'base64'), E'\\n', '')`;
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function sessionOf(row: WhoColumns | undefined): SessionRow | null {
  return row
    ? { id: row.session_id, expires: row.expires, createdAt: row.session_created_at, user: { id: row.user_id, email: row.email, deletedAt: row.deleted_at } }
    : null;
}

const pageSql = (after: boolean) => `${WHO},
page AS (
  -- LATERAL, with the LIMIT inside: the page is read from the (user_id, last_updated, id) index and stops
  -- after limit + 1 rows, however many chats the user has; a join of who and chats let a prepared
  -- statement's generic plan read and sort every chat of the user (bench/perf, docs/issues.md #24).
  SELECT c.id, c.title_ciphertext, c.last_updated, c.version FROM who CROSS JOIN LATERAL (
    SELECT c.id, c.title_ciphertext, c.last_updated, c.version FROM chats c
    WHERE c.user_id = who.user_id ${after ? "AND (c.last_updated, c.id) < ($5::timestamptz, $6::uuid)" : ""}
    ORDER BY c.last_updated DESC, c.id DESC
    LIMIT $3::int
  ) c
),
shown AS (SELECT * FROM page ORDER BY last_updated DESC, id DESC LIMIT $4::int)
SELECT who.*,
  (SELECT json_agg(json_build_object('chat_id', p.id, 'display_name', NULL, 'display_name_ciphertext', ${b64("p.title_ciphertext")},
     'last_updated', ${iso("p.last_updated")}, 'version', p.version) ORDER BY p.last_updated DESC, p.id DESC) FROM shown p)::text AS chats,
  (SELECT count(*) FROM page)::int AS found,
  l.last_ms, l.last_id
FROM who LEFT JOIN LATERAL (
  SELECT floor(extract(epoch FROM p.last_updated) * 1000)::float8 AS last_ms, p.id::text AS last_id
  FROM shown p ORDER BY p.last_updated, p.id LIMIT 1
) l ON true`;
const PAGE_SQL = pageSql(false);
const PAGE_AFTER_SQL = pageSql(true);

export const HISTORY_PAGE_SQL_FOR_TESTS = PAGE_SQL;

/** GET /api/ns/chat_history's JSON; `session` and `json` null for an unknown or expired token. @throws AppError bad_request:input, bad_request:cursor */
export async function historyPageJsonForSession(input: {
  sessionTokenHash: string;
  now: Date;
  limit: number;
  cursor?: string | null;
}): Promise<{ session: SessionRow | null; json: string | null }> {
  const { limit } = input;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidInput("limit must be an integer from 1 to 100.");
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const values: unknown[] = [input.sessionTokenHash, input.now.toISOString(), limit + 1, limit];
  if (after) values.push(after.lastUpdated.toISOString(), after.chatId);
  const pool = await getPool();
  const { rows } = await pool.query<WhoColumns & { chats: string | null; found: number; last_ms: number | null; last_id: string | null }>({
    name: after ? "hush_history_page_after" : "hush_history_page",
    text: after ? PAGE_AFTER_SQL : PAGE_SQL,
    values,
  });
  const row = rows[0];
  if (!row) return { session: null, json: null };
  const next = row.found > limit && row.last_id !== null ? JSON.stringify(encodeCursor(new Date(row.last_ms!), row.last_id)) : "null";
  return { session: sessionOf(row), json: `{"chat_history":${row.chats ?? "[]"},"next_cursor":${next}}` };
}

const CHAT_JSON = `json_build_object('chat_id', c.id, 'display_name', NULL, 'display_name_ciphertext', ${b64("c.title_ciphertext")},
    'tree_ciphertext', ${b64("c.tree_ciphertext")}, 'header_ciphertext', ${b64("c.header_ciphertext")}, 'version', c.version, 'created_at', ${iso("c.created_at")}, 'last_updated', ${iso("c.last_updated")},
    'messages', COALESCE((
      SELECT json_agg(json_build_object('role', m.role, 'content', '', 'position', m.position,
        'content_ciphertext', ${b64("m.content_ciphertext")}, 'attachment_ciphertext', ${b64("m.attachment_ciphertext")},
        'steps_ciphertext', ${b64("m.steps_ciphertext")}) ORDER BY m.position)
      FROM messages m WHERE m.user_id = c.user_id AND m.chat_id = c.id), '[]'::json))`;

const CHAT_SQL = `${WHO}
SELECT who.*, (
  SELECT ${CHAT_JSON}::text
  FROM chats c WHERE c.id = $3::uuid AND c.user_id = who.user_id
) AS chat
FROM who`;

/** GET /api/ns/chat_history/{chat_id}'s JSON; `json` null when not one of the user's vault chats. */
export async function chatJsonForSession(input: { sessionTokenHash: string; now: Date; chatId: string }): Promise<{
  session: SessionRow | null;
  json: string | null;
}> {
  const chatId = input.chatId.toLowerCase();
  if (!LOWERCASE_UUID.test(chatId)) {
    const pool = await getPool();
    const { rows } = await pool.query<WhoColumns>({ name: "hush_history_who", text: WHO_SQL, values: [input.sessionTokenHash, input.now.toISOString()] });
    return { session: sessionOf(rows[0]), json: null };
  }
  const pool = await getPool();
  const { rows } = await pool.query<WhoColumns & { chat: string | null }>({
    name: "hush_history_chat",
    text: CHAT_SQL,
    values: [input.sessionTokenHash, input.now.toISOString(), chatId],
  });
  return { session: sessionOf(rows[0]), json: rows[0]?.chat ?? null };
}

/** $1: user id, $2: ids (uuid[]), $3: byte bound; the running sum picks a prefix (always the first chat). */
const BATCH_SQL = `WITH sized AS (
  SELECT c.id, a.ord, row_number() OVER (ORDER BY a.ord) AS n,
    sum(COALESCE(octet_length(c.title_ciphertext), 0) + COALESCE(octet_length(c.tree_ciphertext), 0) + COALESCE(octet_length(c.header_ciphertext), 0)
      + COALESCE((SELECT SUM(octet_length(m.content_ciphertext) + COALESCE(octet_length(m.attachment_ciphertext), 0)
                      + COALESCE(octet_length(m.steps_ciphertext), 0))
                  FROM messages m WHERE m.user_id = c.user_id AND m.chat_id = c.id), 0)) OVER (ORDER BY a.ord) AS running
  FROM unnest($2::uuid[]) WITH ORDINALITY AS a(id, ord)
  JOIN chats c ON c.user_id = $1::text AND c.id = a.id
)
SELECT
  (SELECT COALESCE(json_agg(${CHAT_JSON} ORDER BY s.ord), '[]'::json)
     FROM sized s JOIN chats c ON c.user_id = $1::text AND c.id = s.id
     WHERE s.n = 1 OR s.running <= $3::float8)::text AS chats,
  (SELECT COALESCE(json_agg(s.id ORDER BY s.ord), '[]'::json) FROM sized s WHERE NOT (s.n = 1 OR s.running <= $3::float8))::text AS remaining`;

/** POST /api/ns/chat_history/batch's JSON, in order within `maxBytes`. @throws AppError bad_request:input (over CHAT_BATCH_MAX_IDS) */
export async function sealedChatsJson(input: { userId: string; chatIds: readonly string[]; maxBytes?: number }): Promise<string> {
  if (input.chatIds.length > CHAT_BATCH_MAX_IDS) throw invalidInput(`At most ${CHAT_BATCH_MAX_IDS} chats at a time.`);
  const ids = [...new Set(input.chatIds.map((id) => id.toLowerCase()).filter((id) => LOWERCASE_UUID.test(id)))];
  if (!ids.length) return `{"chats":[],"remaining_chat_ids":[]}`;
  const pool = await getPool();
  const { rows } = await pool.query<{ chats: string; remaining: string }>({ name: "hush_history_batch", text: BATCH_SQL, values: [input.userId, ids, input.maxBytes ?? CHAT_BATCH_MAX_BYTES] });
  return `{"chats":${rows[0]!.chats},"remaining_chat_ids":${rows[0]!.remaining}}`;
}
