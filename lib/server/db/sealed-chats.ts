import "server-only";
import { Prisma } from "@/lib/server/db/generated/prisma/client";
import pg from "pg";
import { getDb, rawRows } from "@/lib/server/db/client";
import { chatNotFound, chatVersionConflict, invalidInput, manifestConflict, noVault, saveConflict } from "@/lib/server/db/errors";
import { LOWERCASE_UUID } from "@/lib/shared/uuid";
import { liveSessionSql, type SessionRow } from "@/lib/server/db/sessions";

/**
 * Data access for chats saved under the vault: sealed turns in (the reads are
 * lib/server/db/sealed-chat-reads.ts). Re-exported by lib/server/db/queries.ts. Nothing here can decrypt anything: the server stores and returns the browser's
 * ciphertext (format 2) as bytes, checks only its shape, and scopes every call by the user (or the
 * session that names them).
 */

/** One message of an encrypted turn, as the browser sends it. */
export interface SealedMessage {
  role: "user" | "assistant" | "system";
  content: Uint8Array<ArrayBuffer>;
  attachment: Uint8Array<ArrayBuffer> | null;
  /** An answer's sealed steps (field "steps"); null or absent when it has none. */
  steps?: Uint8Array<ArrayBuffer> | null;
}

/**
 * What a Hush browser writes with every change to a chat: the chat's new sealed header and
 * the version it replaces, and the user's new sealed manifest and the version it replaces. Both are
 * compare-and-set in the same statement or transaction as the change, so a chat's version and the
 * manifest's record of it never disagree, and two devices never write the same version.
 */
export interface IntegrityWrite {
  header: Uint8Array<ArrayBuffer>;
  baseVersion: number;
  manifest: ManifestWrite;
}

/** The user's new sealed manifest and the version it replaces. */
export interface ManifestWrite {
  ciphertext: Uint8Array<ArrayBuffer>;
  baseVersion: number;
  /** The vault key generation the writer holds: a write from before a rotation fails like a lost race. */
  keyGeneration: number;
}

/**
 * Write the manifest inside a transaction (compare-and-set on its version, which then goes up by one).
 * @throws AppError conflict:manifest when another write came first.
 */
export async function writeManifest(tx: Prisma.TransactionClient, userId: string, manifest: ManifestWrite): Promise<void> {
  const { count } = await tx.vault.updateMany({
    where: { userId, manifestVersion: manifest.baseVersion, keyGeneration: manifest.keyGeneration },
    data: { manifestCiphertext: manifest.ciphertext, manifestVersion: manifest.baseVersion + 1 },
  });
  if (count !== 1) throw manifestConflict();
}

/** A turn to store: what POST /api/ns/chat_save carries, for `userId` (see saveSealedTurn). */
export interface SealedTurnInput {
  userId: string;
  chatId: string;
  create: boolean;
  title: Uint8Array<ArrayBuffer> | null;
  firstPosition: number;
  messages: SealedMessage[];
  replace?: boolean;
  tree?: Uint8Array<ArrayBuffer> | null;
  createdAt?: Date;
  lastUpdated?: Date;
  integrity?: IntegrityWrite;
}

/**
 * Store an encrypted turn (the browser encrypts, the server only stores). `create`: a new
 * chat with the browser-chosen id (lowercase UUID; the ciphertexts' associated data binds it) and
 * messages at 0..n-1, dated now or, for an import, at `createdAt`/`lastUpdated`. Otherwise the messages
 * are appended at `firstPosition`, which must be the chat's next position (else AppError conflict:save, so
 * two tabs cannot interleave); with `replace` (an edited or regenerated turn changed the active
 * path) `firstPosition` may be any stored position up to the next one, and the messages from there on
 * are deleted and replaced in the same transaction. `tree` (the sealed branch tree): bytes set it, null
 * clears it, undefined leaves it. `integrity`: the new header and manifest, compare-and-set.
 * @throws AppError conflict:no_vault, AppError not_found:chat (not the user's vault chat), AppError conflict:save,
 * AppError conflict:chat_version, AppError conflict:manifest, AppError bad_request:input.
 */
export async function saveSealedTurn(input: SealedTurnInput): Promise<{ lastUpdated: Date }> {
  checkTurnShape(input);
  if (input.replace) return replaceTail(input, turnDates(input).lastUpdated);
  return (await writeTurn(input, Prisma.sql`SELECT ${input.userId}::text AS id, NULL::text AS email, NULL::timestamptz AS deleted_at,
    NULL::text AS session_id, NULL::timestamptz AS session_expires, NULL::timestamptz AS session_created_at`)).outcome();
}

/**
 * saveSealedTurn (without `replace`) for the live session whose token hashes to `sessionTokenHash`, the
 * session read in the save's own statement (one database round trip for a saved turn's
 * request). Nothing is written unless the session is live at `now` and its account not deleted. Returns
 * the session row found (null: none live), for lib/server/auth/session.ts requireUserWith to apply its rules
 * (401, 403, idle deadline) before `outcome()` gives the save's result or throws its refusal.
 * @throws AppError bad_request:input (the turn's shape, before any SQL); the driver's errors.
 */
export async function saveSealedTurnForSession(
  sessionTokenHash: string,
  now: Date,
  turn: Omit<SealedTurnInput, "userId" | "replace">,
): Promise<{ session: SessionRow | null; value: () => { lastUpdated: Date } }> {
  checkTurnShape(turn);
  const { session, outcome } = await writeTurn(
    turn,
    Prisma.sql`SELECT u.id, u.email, u.deleted_at, live.id AS session_id, live.expires AS session_expires, live.created_at AS session_created_at
      FROM (${liveSessionSql(sessionTokenHash, now)}) AS live JOIN users u ON u.id = live.user_id`,
  );
  return { session, value: outcome };
}

/** The checks of a turn's shape that need no database. @throws AppError bad_request:input */
function checkTurnShape(input: Omit<SealedTurnInput, "userId">): void {
  if (input.create && input.integrity && input.integrity.baseVersion !== 0) throw invalidInput("A new chat's header replaces version 0.");
  if (!LOWERCASE_UUID.test(input.chatId)) throw invalidInput("chat_id must be a lowercase UUID.");
  if (!input.create && (input.createdAt || input.lastUpdated)) throw invalidInput("Only a new chat takes its dates.");
  if (input.create && input.firstPosition !== 0) throw invalidInput("A new chat starts at position 0.");
  if (input.create && input.replace) throw invalidInput("A new chat has nothing to replace.");
}

/** A turn's last_updated: now, or an imported new chat's own. */
function turnDates(input: Pick<SealedTurnInput, "create" | "lastUpdated">): { lastUpdated: Date } {
  return { lastUpdated: input.create ? (input.lastUpdated ?? new Date()) : new Date() };
}

/** The saver's row as the statement returns it: `gate`'s columns (all null when it had no row). */
interface GateColumns {
  gate_id: string | null;
  gate_email: string | null;
  gate_deleted_at: Date | null;
  session_id: string | null;
  session_expires: Date | null;
  session_created_at: Date | null;
}

/** The session row the statement found with its user, or null (a saver given by id, or no live session). */
function sessionOf(row: GateColumns | undefined): SessionRow | null {
  if (!row?.gate_id || !row.session_id || !row.session_expires || !row.session_created_at) return null;
  return {
    id: row.session_id,
    expires: row.session_expires,
    createdAt: row.session_created_at,
    user: { id: row.gate_id, email: row.gate_email, deletedAt: row.gate_deleted_at },
  };
}

/**
 * The create or append statement of a turn (no `replace`), its saver given by `gate`: a query of at most
 * one row (id, email, deleted_at, session_id, session_expires, session_created_at); the turn is written for
 * gate's id unless deleted_at is set. `outcome()` throws the save's refusal, if any.
 * @throws AppError conflict:save (a unique key taken by a concurrent save); the driver's errors.
 */
async function writeTurn(
  input: Omit<SealedTurnInput, "userId" | "replace">,
  gate: Prisma.Sql,
): Promise<{ session: SessionRow | null; outcome: () => { lastUpdated: Date } }> {
  const { chatId } = input;
  // The saver, evaluated once per statement: null (nothing matches it below) without a live, undeleted one.
  const userId = Prisma.sql`(SELECT id FROM gate WHERE deleted_at IS NULL)`;
  const gateColumns = Prisma.sql`gate.id AS gate_id, gate.email AS gate_email, gate.deleted_at AS gate_deleted_at,
    gate.session_id, gate.session_expires, gate.session_created_at`;
  const { lastUpdated } = turnDates(input);
  const at = lastUpdated.toISOString();
  // Messages' and chats' creation times are stored to the minute ("Metadata"): nothing
  // needs more. last_updated stays exact: it orders the history and tells a browser what changed.
  const atMinute = toMinute(lastUpdated).toISOString();
  // One statement, so one round trip and no connection held open across the event loop: under load a
  // multi-statement transaction waited seconds for a pooled connection and failed (bench/load.ts, issue
  // 11). The rows travel as one JSON parameter, ciphertext in base64, decoded by PostgreSQL.
  const rows = JSON.stringify(
    input.messages.map((m, i) => ({
      position: input.firstPosition + i,
      role: m.role,
      content: b64(m.content),
      attachment: m.attachment ? b64(m.attachment) : null,
      steps: m.steps ? b64(m.steps) : null,
    })),
  );
  const title = input.title ? b64(input.title) : null;
  // tree: undefined keeps the stored one, null clears it, bytes set it.
  const setTree = input.tree !== undefined;
  const tree = input.tree ? b64(input.tree) : null;
  // Without `integrity` (an older client) the header and versions stay as they are.
  const checked = input.integrity !== undefined;
  const header = input.integrity ? b64(input.integrity.header) : null;
  const baseVersion = input.integrity?.baseVersion ?? 0;
  const manifest = input.integrity ? b64(input.integrity.manifest.ciphertext) : null;
  const manifestBase = input.integrity?.manifest.baseVersion ?? 0;
  const generation = input.integrity?.manifest.keyGeneration ?? 0;
  try {
    if (input.create) {
      const created = toMinute(input.createdAt ?? lastUpdated).toISOString();
      // Through node-postgres (rawRows): every parameter carries its cast.
      const [result] = await rawRows<{ has_vault: number; inserted: number; manifest: number } & GateColumns>(Prisma.sql`
        WITH gate AS (${gate}),
        man AS (
          UPDATE vaults SET manifest_ciphertext = decode(${manifest}::text, 'base64'), manifest_version = manifest_version + 1
          WHERE ${checked}::boolean AND user_id = ${userId} AND manifest_version = ${manifestBase}::int AND key_generation = ${generation}::int
          RETURNING 1
        ),
        v AS (SELECT 1 FROM vaults WHERE user_id = ${userId} AND (NOT ${checked}::boolean OR EXISTS (SELECT 1 FROM man))),
        c AS (
          INSERT INTO chats (id, user_id, title_ciphertext, tree_ciphertext, header_ciphertext, version, key_generation, created_at, last_updated)
          SELECT ${chatId}::uuid, ${userId}, decode(${title}::text, 'base64'), decode(${tree}::text, 'base64'),
                 decode(${header}::text, 'base64'), CASE WHEN ${checked}::boolean THEN 1 ELSE 0 END, ${generation}::int,
                 ${created}::timestamptz, ${at}::timestamptz FROM v
          RETURNING id
        ),
        ins AS (
          INSERT INTO messages (id, user_id, chat_id, position, role, content_ciphertext, attachment_ciphertext, steps_ciphertext, created_at)
          SELECT gen_random_uuid(), ${userId}, c.id, x.position, x.role, decode(x.content, 'base64'), decode(x.attachment, 'base64'), decode(x.steps, 'base64'), ${atMinute}::timestamptz
          FROM c, jsonb_to_recordset(${rows}::jsonb) AS x(position int, role text, content text, attachment text, steps text)
          RETURNING 1
        )
        SELECT (SELECT count(*) FROM vaults WHERE user_id = ${userId})::int AS has_vault, (SELECT count(*) FROM ins)::int AS inserted,
               (SELECT count(*) FROM man)::int AS manifest, ${gateColumns}
        FROM (SELECT 1) AS one LEFT JOIN gate ON true`);
      return {
        session: sessionOf(result),
        outcome: () => {
          if (!result?.has_vault) throw noVault();
          if (checked && !result.manifest) throw manifestConflict();
          return { lastUpdated };
        },
      };
    }
    // Appending: the chat row is locked (FOR UPDATE) and the position checked in the same statement; two
    // tabs appending at once both see the same next position, and the second's insert then violates the
    // (chat_id, position) key: a AppError conflict:save, never an interleaving.
    const [result] = await rawRows<{ has_vault: number; owned: number; next: number; version: number; written: number } & GateColumns>(Prisma.sql`
      WITH gate AS (${gate}),
      v AS (SELECT 1 FROM vaults WHERE user_id = ${userId}),
      owned AS (
        SELECT c.id, c.version, c.key_generation FROM chats c
        WHERE c.id = ${chatId}::uuid AND c.user_id = ${userId} AND EXISTS (SELECT 1 FROM v)
        FOR UPDATE OF c
      ),
      nxt AS (SELECT COALESCE(max(m.position), -1) + 1 AS n FROM messages m WHERE m.user_id = ${userId} AND m.chat_id = ${chatId}::uuid),
      fits AS (
        SELECT o.id FROM owned o, nxt
        WHERE nxt.n = ${input.firstPosition}::int AND (NOT ${checked}::boolean OR (o.version = ${baseVersion}::int AND o.key_generation = ${generation}::int))
      ),
      man AS (
        UPDATE vaults SET manifest_ciphertext = decode(${manifest}::text, 'base64'), manifest_version = manifest_version + 1
        WHERE ${checked}::boolean AND user_id = ${userId} AND manifest_version = ${manifestBase}::int AND key_generation = ${generation}::int
          AND EXISTS (SELECT 1 FROM fits)
        RETURNING 1
      ),
      ok AS (SELECT id FROM fits WHERE NOT ${checked}::boolean OR EXISTS (SELECT 1 FROM man)),
      ins AS (
        INSERT INTO messages (id, user_id, chat_id, position, role, content_ciphertext, attachment_ciphertext, steps_ciphertext, created_at)
        SELECT gen_random_uuid(), ${userId}, ok.id, x.position, x.role, decode(x.content, 'base64'), decode(x.attachment, 'base64'), decode(x.steps, 'base64'), ${atMinute}::timestamptz
        FROM ok, jsonb_to_recordset(${rows}::jsonb) AS x(position int, role text, content text, attachment text, steps text)
        RETURNING 1
      ),
      upd AS (
        UPDATE chats SET last_updated = ${at}::timestamptz,
          title_ciphertext = COALESCE(decode(${title}::text, 'base64'), title_ciphertext),
          tree_ciphertext = CASE WHEN ${setTree}::boolean THEN decode(${tree}::text, 'base64') ELSE tree_ciphertext END,
          header_ciphertext = CASE WHEN ${checked}::boolean THEN decode(${header}::text, 'base64') ELSE header_ciphertext END,
          version = CASE WHEN ${checked}::boolean THEN version + 1 ELSE version END
        WHERE user_id = ${userId} AND id IN (SELECT id FROM ok)
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM v)::int AS has_vault, (SELECT count(*) FROM owned)::int AS owned,
             (SELECT n FROM nxt)::int AS next, (SELECT version FROM owned)::int AS version,
             (SELECT count(*) FROM ok)::int AS written, ${gateColumns}
      FROM (SELECT 1) AS one LEFT JOIN gate ON true`);
    return {
      session: sessionOf(result),
      outcome: () => {
        if (!result?.has_vault) throw noVault();
        if (!result.owned) throw chatNotFound();
        if (result.next !== input.firstPosition) throw saveConflict();
        if (checked && result.version !== baseVersion) throw chatVersionConflict();
        if (!result.written) throw manifestConflict();
        return { lastUpdated };
      },
    };
  } catch (error) {
    if (isUniqueViolation(error)) throw saveConflict();
    throw error;
  }
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** `date` with its seconds and milliseconds dropped. */
function toMinute(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 60_000) * 60_000);
}

/** Prisma's interactive-transaction limits for a save: wait up to 10 s for a connection, finish in 20 s. */
const SAVE_TRANSACTION = { maxWait: 10_000, timeout: 20_000 } as const;

/**
 * An edit or regenerate in a saved chat: the stored messages from `firstPosition` on are
 * replaced by the new ones, in one transaction under the chat row's lock. Rarer than appends, and a
 * delete plus an insert of the same keys cannot share one statement, so this path keeps a transaction.
 * @throws AppError conflict:no_vault, AppError not_found:chat, AppError conflict:save (firstPosition beyond the next position)
 */
async function replaceTail(input: SealedTurnInput, lastUpdated: Date): Promise<{ lastUpdated: Date }> {
  const { userId, chatId } = input;
  const db = await getDb();
  const vault = await db.vault.findUnique({ where: { userId }, select: { userId: true } });
  if (!vault) throw noVault();
  const tree = input.tree === undefined ? {} : { treeCiphertext: input.tree };
  await db.$transaction(async (tx) => {
    const owned = await tx.$queryRaw<{ id: string; version: number; key_generation: number }[]>`
      SELECT id, version, key_generation FROM chats WHERE id = ${chatId}::uuid AND user_id = ${userId} FOR UPDATE`;
    if (!owned.length) throw chatNotFound();
    const last = await tx.message.aggregate({ where: { userId, chatId }, _max: { position: true } });
    if (input.firstPosition > (last._max.position ?? -1) + 1) throw saveConflict();
    if (input.integrity) {
      if (owned[0]!.key_generation !== input.integrity.manifest.keyGeneration) throw manifestConflict();
      if (owned[0]!.version !== input.integrity.baseVersion) throw chatVersionConflict();
      await writeManifest(tx, userId, input.integrity.manifest);
    }
    await tx.message.deleteMany({ where: { userId, chatId, position: { gte: input.firstPosition } } });
    await tx.message.createMany({
      data: input.messages.map((m, i) => ({
        userId,
        chatId,
        position: input.firstPosition + i,
        role: m.role,
        contentCiphertext: m.content,
        attachmentCiphertext: m.attachment,
        stepsCiphertext: m.steps ?? null,
        createdAt: toMinute(lastUpdated),
      })),
    });
    await tx.chat.update({
      where: { userId_id: { userId, id: chatId } },
      data: {
        lastUpdated,
        ...tree,
        ...(input.title ? { titleCiphertext: input.title } : {}),
        ...(input.integrity ? { headerCiphertext: input.integrity.header, version: input.integrity.baseVersion + 1 } : {}),
      },
    });
  }, SAVE_TRANSACTION);
  return { lastUpdated };
}

/** A unique-key violation, as Prisma reports it for model queries (P2002) and raw SQL (SQLSTATE 23505). */
function isUniqueViolation(error: unknown): boolean {
  // node-postgres (rawRows): the server's SQLSTATE as it is.
  if (error instanceof pg.DatabaseError) return error.code === "23505";
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002") return true;
  const meta = error.meta as { code?: unknown; driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } } | undefined;
  return meta?.code === "23505" || meta?.driverAdapterError?.cause?.originalCode === "23505" || meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation";
}
