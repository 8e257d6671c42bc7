import "server-only";
import { Prisma } from "@/lib/server/db/generated/prisma/client";
import pg from "pg";
import { getDb, rawRows } from "@/lib/server/db/client";
import { chatNotFound, chatVersionConflict, invalidInput, manifestConflict, noVault, saveConflict } from "@/lib/server/db/errors";
import { LOWERCASE_UUID } from "@/lib/shared/uuid";
import { liveSessionSql, type SessionRow } from "@/lib/server/db/sessions";

/** Sealed turns in: the server stores the browser's ciphertext and checks only its shape. */

export interface SealedMessage {
  role: "user" | "assistant" | "system";
  content: Uint8Array<ArrayBuffer>;
  attachment: Uint8Array<ArrayBuffer> | null;
  steps?: Uint8Array<ArrayBuffer> | null;
}

/** A chat's new sealed header and the user's new manifest, each compare-and-set. */
export interface IntegrityWrite {
  header: Uint8Array<ArrayBuffer>;
  baseVersion: number;
  manifest: ManifestWrite;
}

export interface ManifestWrite {
  ciphertext: Uint8Array<ArrayBuffer>;
  baseVersion: number;
  /** A write from before a rotation fails like a lost race. */
  keyGeneration: number;
}

/** @throws AppError conflict:manifest when another write came first. */
export async function writeManifest(tx: Prisma.TransactionClient, userId: string, manifest: ManifestWrite): Promise<void> {
  const { count } = await tx.vault.updateMany({
    where: { userId, manifestVersion: manifest.baseVersion, keyGeneration: manifest.keyGeneration },
    data: { manifestCiphertext: manifest.ciphertext, manifestVersion: manifest.baseVersion + 1 },
  });
  if (count !== 1) throw manifestConflict();
}

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
 * Store an encrypted turn: `create`, append at `firstPosition`, or with `replace` overwrite from there on.
 * @throws AppError conflict:no_vault, not_found:chat, conflict:save, conflict:chat_version, conflict:manifest, bad_request:input.
 */
export async function saveSealedTurn(input: SealedTurnInput): Promise<{ lastUpdated: Date }> {
  checkTurnShape(input);
  if (input.replace) return replaceTail(input, turnDates(input).lastUpdated);
  return (await writeTurn(input, Prisma.sql`SELECT ${input.userId}::text AS id, NULL::text AS email, NULL::timestamptz AS deleted_at,
    NULL::text AS session_id, NULL::timestamptz AS session_expires, NULL::timestamptz AS session_created_at`)).outcome();
}

/** saveSealedTurn (no `replace`) with the session read in the same statement; `outcome()` gives the result. */
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

/** @throws AppError bad_request:input */
function checkTurnShape(input: Omit<SealedTurnInput, "userId">): void {
  if (input.create && input.integrity && input.integrity.baseVersion !== 0) throw invalidInput("A new chat's header replaces version 0.");
  if (!LOWERCASE_UUID.test(input.chatId)) throw invalidInput("chat_id must be a lowercase UUID.");
  if (!input.create && (input.createdAt || input.lastUpdated)) throw invalidInput("Only a new chat takes its dates.");
  if (input.create && input.firstPosition !== 0) throw invalidInput("A new chat starts at position 0.");
  if (input.create && input.replace) throw invalidInput("A new chat has nothing to replace.");
}

function turnDates(input: Pick<SealedTurnInput, "create" | "lastUpdated">): { lastUpdated: Date } {
  return { lastUpdated: input.create ? (input.lastUpdated ?? new Date()) : new Date() };
}

interface GateColumns {
  gate_id: string | null;
  gate_email: string | null;
  gate_deleted_at: Date | null;
  session_id: string | null;
  session_expires: Date | null;
  session_created_at: Date | null;
}

function sessionOf(row: GateColumns | undefined): SessionRow | null {
  if (!row?.gate_id || !row.session_id || !row.session_expires || !row.session_created_at) return null;
  return {
    id: row.session_id,
    expires: row.session_expires,
    createdAt: row.session_created_at,
    user: { id: row.gate_id, email: row.gate_email, deletedAt: row.gate_deleted_at },
  };
}

/** @throws AppError conflict:save */
async function writeTurn(
  input: Omit<SealedTurnInput, "userId" | "replace">,
  gate: Prisma.Sql,
): Promise<{ session: SessionRow | null; outcome: () => { lastUpdated: Date } }> {
  const { chatId } = input;
  const userId = Prisma.sql`(SELECT id FROM gate WHERE deleted_at IS NULL)`;
  const gateColumns = Prisma.sql`gate.id AS gate_id, gate.email AS gate_email, gate.deleted_at AS gate_deleted_at,
    gate.session_id, gate.session_expires, gate.session_created_at`;
  const { lastUpdated } = turnDates(input);
  const at = lastUpdated.toISOString();
  const atMinute = toMinute(lastUpdated).toISOString();
  // One statement, so no connection is held across the event loop.
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
  const setTree = input.tree !== undefined;
  const tree = input.tree ? b64(input.tree) : null;
  const checked = input.integrity !== undefined;
  const header = input.integrity ? b64(input.integrity.header) : null;
  const baseVersion = input.integrity?.baseVersion ?? 0;
  const manifest = input.integrity ? b64(input.integrity.manifest.ciphertext) : null;
  const manifestBase = input.integrity?.manifest.baseVersion ?? 0;
  const generation = input.integrity?.manifest.keyGeneration ?? 0;
  try {
    if (input.create) {
      const created = toMinute(input.createdAt ?? lastUpdated).toISOString();
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
    // Locked and checked in one statement: a concurrent append violates the (chat_id, position) key.
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

function toMinute(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 60_000) * 60_000);
}

const SAVE_TRANSACTION = { maxWait: 10_000, timeout: 20_000 } as const;

// A delete plus an insert of the same keys cannot share one statement.
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

function isUniqueViolation(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) return error.code === "23505";
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002") return true;
  const meta = error.meta as { code?: unknown; driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } } | undefined;
  return meta?.code === "23505" || meta?.driverAdapterError?.cause?.originalCode === "23505" || meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation";
}
