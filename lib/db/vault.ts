import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import { getDb } from "@/lib/db/client";
import type { SessionRow } from "@/lib/auth/session-store";
import { ChatNotFoundError, InvalidCursorError, InvalidInputError, NoVaultError, SaveConflictError, VaultExistsError } from "@/lib/db/errors";

export { NoVaultError, SaveConflictError, VaultExistsError };

/**
 * Data access for the vault (lib/vault/crypto.ts) and for chats saved under it. Re-exported by
 * lib/db/queries.ts. Nothing here can decrypt anything: the server stores and returns the browser's
 * ciphertext (format 2) as bytes, checks only its shape, and scopes every call by `userId`.
 */

export type MethodKind = "passkey" | "passphrase" | "recovery";

/** An unlock method as stored: the wrapped vault key and the non-secret inputs to its wrapping key. */
export interface NewVaultMethod {
  id: string;
  kind: MethodKind;
  label: string | null;
  wrappedKey: Uint8Array<ArrayBuffer>;
  kdf: Record<string, unknown>;
  passkey?: { credentialId: string; publicKey: Uint8Array<ArrayBuffer>; counter: number; transports: string[] };
}

export interface VaultMethodInfo {
  id: string;
  kind: MethodKind;
  label: string | null;
  wrappedKey: Uint8Array;
  kdf: unknown;
  credentialId: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface VaultState {
  vault: { historyOn: boolean; lastUnlockAt: Date | null; createdAt: Date } | null;
  methods: VaultMethodInfo[];
  /** Chats saved before the vault, still under the server-held key: migrated at setup. */
  legacyChats: number;
}

/** The user's vault, its methods (wraps included: useless without a secret only the user holds). */
export async function getVaultState(userId: string): Promise<VaultState> {
  const db = await getDb();
  const [vault, methods, legacyChats] = await Promise.all([
    db.vault.findUnique({ where: { userId } }),
    db.vaultMethod.findMany({ where: { userId }, orderBy: { createdAt: "asc" } }),
    db.chat.count({ where: { userId, vault: false } }),
  ]);
  return {
    vault: vault && { historyOn: vault.historyOn, lastUnlockAt: vault.lastUnlockAt, createdAt: vault.createdAt },
    methods: methods.map((m) => ({
      id: m.id,
      kind: m.kind as MethodKind,
      label: m.label,
      wrappedKey: m.wrappedKey,
      kdf: m.kdf,
      credentialId: m.credentialId,
      createdAt: m.createdAt,
      lastUsedAt: m.lastUsedAt,
    })),
    legacyChats,
  };
}

function methodRow(userId: string, m: NewVaultMethod) {
  return {
    id: m.id,
    userId,
    kind: m.kind,
    label: m.label,
    wrappedKey: m.wrappedKey,
    kdf: m.kdf as Prisma.InputJsonObject,
    credentialId: m.passkey?.credentialId ?? null,
    publicKey: m.passkey?.publicKey ?? null,
    counter: BigInt(m.passkey?.counter ?? 0),
    transports: m.passkey?.transports ?? [],
  };
}

/**
 * Create the vault with its first unlock methods, history on. @throws VaultExistsError
 */
export async function createVault(userId: string, methods: NewVaultMethod[]): Promise<void> {
  if (!methods.length) throw new InvalidInputError("A vault needs at least one unlock method.");
  const db = await getDb();
  try {
    await db.$transaction([
      db.vault.create({ data: { userId, historyOn: true, lastUnlockAt: new Date() } }),
      db.vaultMethod.createMany({ data: methods.map((m) => methodRow(userId, m)) }),
    ]);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw new VaultExistsError();
    throw error;
  }
}

/** Remember the save-history toggle for the account. @returns false when there is no vault. */
export async function setHistoryOn(userId: string, on: boolean): Promise<boolean> {
  const db = await getDb();
  const { count } = await db.vault.updateMany({ where: { userId }, data: { historyOn: on } });
  return count > 0;
}

/** Add an unlock method. @throws NoVaultError; InvalidInputError for a passkey already registered. */
export async function addVaultMethod(userId: string, method: NewVaultMethod): Promise<void> {
  const db = await getDb();
  if (!(await db.vault.count({ where: { userId } }))) throw new NoVaultError();
  try {
    await db.vaultMethod.create({ data: methodRow(userId, method) });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new InvalidInputError("That unlock method is already registered.");
    }
    throw error;
  }
}

/**
 * Remove an unlock method, refusing the last one (the history would be lost), then VACUUM the key
 * table so the removed wrap does not stay readable in the database files.
 * @returns false when the method is not the user's. @throws InvalidInputError for the last method.
 */
export async function removeVaultMethod(userId: string, methodId: string): Promise<boolean> {
  const db = await getDb();
  const removed = await db.$transaction(async (tx) => {
    const methods = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM vault_methods WHERE user_id = ${userId} FOR UPDATE`;
    if (!methods.some((m) => m.id === methodId)) return false;
    if (methods.length === 1) throw new InvalidInputError("Keep at least one way to unlock your history.");
    await tx.vaultMethod.delete({ where: { id: methodId } });
    return true;
  });
  if (removed) await vacuumKeyTables();
  return removed;
}

/**
 * Physically remove deleted key rows: VACUUM FULL rewrites the small key tables into new files (the
 * old files are unlinked), so a removed wrap or data key is not left in a dead tuple. Outside any
 * transaction (VACUUM cannot run inside one).
 */
export async function vacuumKeyTables(): Promise<void> {
  const db = await getDb();
  await db.$executeRawUnsafe("VACUUM FULL vault_methods");
  await db.$executeRawUnsafe("VACUUM FULL data_keys");
}

/** Record an unlock (and which method) for Settings' "last unlock". */
export async function recordUnlock(userId: string, methodId: string, counter?: number): Promise<void> {
  const db = await getDb();
  const now = new Date();
  await db.$transaction([
    db.vault.updateMany({ where: { userId }, data: { lastUnlockAt: now } }),
    db.vaultMethod.updateMany({
      where: { id: methodId, userId },
      data: { lastUsedAt: now, ...(counter !== undefined ? { counter: BigInt(counter) } : {}) },
    }),
  ]);
}

/** A user's passkey method by WebAuthn credential id, or null. */
export async function findPasskey(userId: string, credentialId: string) {
  const db = await getDb();
  return db.vaultMethod.findFirst({ where: { userId, credentialId, kind: "passkey" } });
}

/** Store the pending WebAuthn challenge of a ceremony (replacing any earlier one), valid 5 minutes. */
export async function saveChallenge(userId: string, challenge: string, purpose: string): Promise<void> {
  const db = await getDb();
  const expires = new Date(Date.now() + 5 * 60_000);
  await db.webauthnChallenge.upsert({
    where: { userId },
    create: { userId, challenge, purpose, expires },
    update: { challenge, purpose, expires },
  });
}

/** Take (delete and return) the user's pending challenge for `purpose`; null when none or expired. */
export async function takeChallenge(userId: string, purpose: string): Promise<string | null> {
  const db = await getDb();
  const rows = await db.$queryRaw<{ challenge: string; purpose: string; expires: Date }[]>`
    DELETE FROM webauthn_challenges WHERE user_id = ${userId} RETURNING challenge, purpose, expires`;
  const row = rows[0];
  return row && row.purpose === purpose && row.expires.getTime() > Date.now() ? row.challenge : null;
}

/** One message of an encrypted turn, as the browser sends it. */
export interface SealedMessage {
  role: "user" | "assistant" | "system";
  content: Uint8Array<ArrayBuffer>;
  attachment: Uint8Array<ArrayBuffer> | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Bound for an id that is no UUID: no chat has it. */
const NO_CHAT = "00000000-0000-0000-0000-000000000000";

/**
 * Store an encrypted turn (issue 8: the browser encrypts, the server only stores). `create`: a new
 * chat with the browser-chosen id (lowercase UUID; the ciphertexts' associated data binds it) and
 * messages at 0..n-1. Otherwise the messages are appended at `firstPosition`, which must be the
 * chat's next position (else SaveConflictError, so two tabs cannot interleave).
 * @throws NoVaultError, ChatNotFoundError (not the user's vault chat), SaveConflictError.
 */
export async function saveSealedTurn(input: {
  userId: string;
  chatId: string;
  create: boolean;
  title: Uint8Array<ArrayBuffer> | null;
  firstPosition: number;
  messages: SealedMessage[];
}): Promise<{ lastUpdated: Date }> {
  const { userId, chatId } = input;
  if (!UUID.test(chatId)) throw new InvalidInputError("chat_id must be a lowercase UUID.");
  const db = await getDb();
  const vault = await db.vault.findUnique({ where: { userId }, select: { userId: true } });
  if (!vault) throw new NoVaultError();
  const lastUpdated = new Date();
  const rows = (first: number) =>
    input.messages.map((m, i) => ({
      chatId,
      position: first + i,
      role: m.role,
      contentCiphertext: m.content,
      attachmentCiphertext: m.attachment,
    }));
  if (input.create) {
    if (input.firstPosition !== 0) throw new InvalidInputError("A new chat starts at position 0.");
    try {
      await db.chat.create({
        data: {
          id: chatId,
          userId,
          vault: true,
          titleCiphertext: input.title,
          createdAt: lastUpdated,
          lastUpdated,
          messages: { createMany: { data: rows(0).map((r) => ({ position: r.position, role: r.role, contentCiphertext: r.contentCiphertext, attachmentCiphertext: r.attachmentCiphertext })) } },
        },
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw new SaveConflictError();
      throw error;
    }
    return { lastUpdated };
  }
  await db.$transaction(async (tx) => {
    const owned = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM chats WHERE id = ${chatId}::uuid AND user_id = ${userId} AND vault FOR UPDATE`;
    if (!owned.length) throw new ChatNotFoundError();
    const last = await tx.message.aggregate({ where: { chatId }, _max: { position: true } });
    if ((last._max.position ?? -1) + 1 !== input.firstPosition) throw new SaveConflictError();
    await tx.message.createMany({ data: rows(input.firstPosition) });
    await tx.chat.update({
      where: { id: chatId },
      data: { lastUpdated, ...(input.title ? { titleCiphertext: input.title } : {}) },
    });
  });
  return { lastUpdated };
}

export interface SealedChatSummary {
  chatId: string;
  title: Uint8Array | null;
  lastUpdated: Date;
}

function encodeCursor(lastUpdated: Date, chatId: string): string {
  return Buffer.from(`${lastUpdated.getTime()}.${chatId}`).toString("base64url");
}

function decodeCursor(cursor: string): { lastUpdated: Date; chatId: string } {
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match || !UUID.test(match[2]!)) throw new InvalidCursorError();
  return { lastUpdated: new Date(Number(match[1])), chatId: match[2]! };
}

/**
 * A page of the user's vault chats, newest first, titles as ciphertext (keyset pagination as in
 * listChats). @throws InvalidInputError (limit), InvalidCursorError.
 */
export async function listSealedChats(input: { userId: string; limit: number; cursor?: string | null }) {
  const { userId, limit } = input;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new InvalidInputError("limit must be an integer from 1 to 100.");
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const db = await getDb();
  const rows = await db.$queryRaw<{ id: string; title_ciphertext: Uint8Array | null; last_updated: Date }[]>`
    SELECT id::text AS id, title_ciphertext, last_updated FROM chats
    WHERE user_id = ${userId} AND vault
    ${after ? Prisma.sql`AND (last_updated, id) < (${after.lastUpdated.toISOString()}::timestamptz, ${after.chatId}::uuid)` : Prisma.empty}
    ORDER BY last_updated DESC, id DESC
    LIMIT ${limit + 1}`;
  const chats: SealedChatSummary[] = rows.slice(0, limit).map((r) => ({ chatId: r.id, title: r.title_ciphertext, lastUpdated: r.last_updated }));
  const last = chats.at(-1);
  return { chats, nextCursor: rows.length > limit && last ? encodeCursor(last.lastUpdated, last.chatId) : null };
}

/** One vault chat with its messages as ciphertext, in position order. @throws ChatNotFoundError */
export async function getSealedChat(input: { userId: string; chatId: string }) {
  const chatId = input.chatId.toLowerCase();
  if (!UUID.test(chatId)) throw new ChatNotFoundError();
  const db = await getDb();
  const chat = await db.chat.findFirst({
    where: { id: chatId, userId: input.userId, vault: true },
    include: { messages: { orderBy: { position: "asc" } } },
  });
  if (!chat) throw new ChatNotFoundError();
  return {
    chatId,
    title: chat.titleCiphertext,
    lastUpdated: chat.lastUpdated,
    messages: chat.messages.map((m) => ({
      position: m.position,
      role: m.role,
      content: m.contentCiphertext,
      attachment: m.attachmentCiphertext,
    })),
  };
}

/** The session and user columns a session-joined read returns (lib/auth/session.ts requireUserWith). */
interface WhoColumns {
  session_id: string;
  expires: Date;
  session_created_at: Date;
  user_id: string;
  email: string | null;
  deleted_at: Date | null;
}

const WHO = (sessionTokenHash: string, now: Date) => Prisma.sql`
  WITH who AS (
    SELECT s.id AS session_id, s.expires, s.created_at AS session_created_at, u.id AS user_id, u.email, u.deleted_at
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.session_token = ${sessionTokenHash}::text AND s.expires > ${now.toISOString()}::timestamptz
  )`;

/** Bytes as base64 for a JSON parameter (decoded again in SQL), null stays null. */
const base64 = (bytes: Uint8Array | null) => (bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64") : null);

function sessionOf(row: WhoColumns | undefined): SessionRow | null {
  return row
    ? { id: row.session_id, expires: row.expires, createdAt: row.session_created_at, user: { id: row.user_id, email: row.email, deletedAt: row.deleted_at } }
    : null;
}

/**
 * listSealedChats for the live session whose token hashes to `sessionTokenHash`, in one statement
 * (issue 12): the session and its user, and that user's page of vault chats. `session` is null when
 * the token is unknown or expired (then there are no chats). The caller applies the session's rules
 * (lib/auth/session.ts requireUserWith) before using the page.
 * @throws InvalidInputError (limit), InvalidCursorError.
 */
export async function listSealedChatsForSession(input: { sessionTokenHash: string; now: Date; limit: number; cursor?: string | null }) {
  const { limit } = input;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new InvalidInputError("limit must be an integer from 1 to 100.");
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const db = await getDb();
  const rows = await db.$queryRaw<(WhoColumns & { chat_id: string | null; title_ciphertext: Uint8Array | null; last_updated: Date | null })[]>`
    ${WHO(input.sessionTokenHash, input.now)}
    SELECT who.*, c.id::text AS chat_id, c.title_ciphertext, c.last_updated
    FROM who LEFT JOIN LATERAL (
      SELECT id, title_ciphertext, last_updated FROM chats
      WHERE user_id = who.user_id AND vault
      ${after ? Prisma.sql`AND (last_updated, id) < (${after.lastUpdated.toISOString()}::timestamptz, ${after.chatId}::uuid)` : Prisma.empty}
      ORDER BY last_updated DESC, id DESC
      LIMIT ${limit + 1}
    ) c ON true
    ORDER BY c.last_updated DESC, c.id DESC`;
  const found = rows.filter((r) => r.chat_id !== null);
  const chats: SealedChatSummary[] = found.slice(0, limit).map((r) => ({ chatId: r.chat_id!, title: r.title_ciphertext, lastUpdated: r.last_updated! }));
  const last = chats.at(-1);
  return { session: sessionOf(rows[0]), chats, nextCursor: found.length > limit && last ? encodeCursor(last.lastUpdated, last.chatId) : null };
}

/**
 * getSealedChat for the live session whose token hashes to `sessionTokenHash`, in one statement
 * (issue 12). `session` null: unknown or expired token. `chat` null: not one of the session user's
 * vault chats (the caller answers 404 once the session passed).
 */
export async function getSealedChatForSession(input: { sessionTokenHash: string; now: Date; chatId: string }) {
  const chatId = input.chatId.toLowerCase();
  const db = await getDb();
  const rows = await db.$queryRaw<
    (WhoColumns & {
      chat_id: string | null;
      title_ciphertext: Uint8Array | null;
      last_updated: Date | null;
      position: number | null;
      role: string | null;
      content_ciphertext: Uint8Array | null;
      attachment_ciphertext: Uint8Array | null;
    })[]
  >`
    ${WHO(input.sessionTokenHash, input.now)}
    SELECT who.*, c.id::text AS chat_id, c.title_ciphertext, c.last_updated,
           m.position, m.role, m.content_ciphertext, m.attachment_ciphertext
    FROM who
    LEFT JOIN chats c ON c.id = ${UUID.test(chatId) ? chatId : NO_CHAT}::uuid AND c.user_id = who.user_id AND c.vault
    LEFT JOIN messages m ON m.chat_id = c.id
    ORDER BY m.position`;
  const first = rows[0];
  const chat =
    first && first.chat_id !== null
      ? {
          chatId,
          title: first.title_ciphertext,
          lastUpdated: first.last_updated!,
          messages: rows
            .filter((r) => r.position !== null)
            .map((r) => ({ position: r.position!, role: r.role!, content: r.content_ciphertext!, attachment: r.attachment_ciphertext })),
        }
      : null;
  return { session: sessionOf(first), chat };
}

/**
 * saveSealedTurn's new-chat case (create: true) for the live session whose token hashes to
 * `sessionTokenHash`, in one statement (issue 12): reads the session, its user and whether the user
 * has a vault, and, only when the account is not deleted and has a vault, inserts the chat and all its
 * messages (one multi-row insert; the statement is atomic). `created` false with a live, undeleted
 * user who has a vault means the chat id already exists (SaveConflictError for the caller).
 * The caller applies the session's rules (requireUserWith); nothing is written for a missing session.
 */
export async function createSealedChatForSession(input: {
  sessionTokenHash: string;
  now: Date;
  chatId: string;
  title: Uint8Array | null;
  messages: SealedMessage[];
}): Promise<{ session: SessionRow | null; hasVault: boolean; created: boolean }> {
  if (!UUID.test(input.chatId)) throw new InvalidInputError("chat_id must be a lowercase UUID.");
  const messages = JSON.stringify(input.messages.map((m, i) => ({ p: i, r: m.role, c: base64(m.content), a: base64(m.attachment) })));
  const now = input.now.toISOString();
  const db = await getDb();
  const rows = await db.$queryRaw<(WhoColumns & { has_vault: boolean; created: boolean })[]>`
    ${WHO(input.sessionTokenHash, input.now)},
    allowed AS (
      SELECT who.user_id FROM who WHERE who.deleted_at IS NULL AND EXISTS (SELECT 1 FROM vaults v WHERE v.user_id = who.user_id)
    ),
    chat AS (
      INSERT INTO chats (id, user_id, vault, title_ciphertext, created_at, last_updated)
      SELECT ${input.chatId}::uuid, allowed.user_id, true, decode(${base64(input.title)}::text, 'base64'), ${now}::timestamptz, ${now}::timestamptz FROM allowed
      ON CONFLICT (id) DO NOTHING
      RETURNING id
    ),
    msgs AS (
      INSERT INTO messages (id, chat_id, position, role, content_ciphertext, attachment_ciphertext, created_at)
      SELECT gen_random_uuid(), chat.id, t.p, t.r, decode(t.c, 'base64'), decode(t.a, 'base64'), ${now}::timestamptz
      FROM chat, jsonb_to_recordset(${messages}::jsonb) AS t(p int, r text, c text, a text)
      RETURNING 1
    )
    -- Data-modifying CTEs run to completion whether or not they are read (PostgreSQL).
    SELECT who.*,
      EXISTS (SELECT 1 FROM vaults v WHERE v.user_id = who.user_id) AS has_vault,
      EXISTS (SELECT 1 FROM chat) AS created
    FROM who`;
  const row = rows[0];
  return { session: sessionOf(row), hasVault: row?.has_vault ?? false, created: row?.created ?? false };
}

/**
 * saveSealedTurn's append case (create: false) for the live session whose token hashes to
 * `sessionTokenHash`, in one statement (issue 12): reads the session, its user and whether the user has
 * a vault; locks the chat when it is the user's vault chat (account not deleted, vault present); and
 * only when `firstPosition` is the chat's next position inserts the messages (one multi-row insert) and
 * moves the chat's `last_updated` (and title, when given). `owned` false: not the user's chat (404);
 * `saved` false with `owned`: the position moved (409). Two appends racing for the same position: the
 * second waits on the lock, reads the position from its own snapshot and hits the (chat_id, position)
 * unique index; that is reported as SaveConflictError, like the position check.
 * @throws SaveConflictError (the race above).
 */
export async function appendSealedTurnForSession(input: {
  sessionTokenHash: string;
  now: Date;
  chatId: string;
  title: Uint8Array | null;
  firstPosition: number;
  messages: SealedMessage[];
}): Promise<{ session: SessionRow | null; hasVault: boolean; owned: boolean; saved: boolean }> {
  if (!UUID.test(input.chatId)) throw new InvalidInputError("chat_id must be a lowercase UUID.");
  const messages = JSON.stringify(input.messages.map((m, i) => ({ p: i, r: m.role, c: base64(m.content), a: base64(m.attachment) })));
  const now = input.now.toISOString();
  const db = await getDb();
  try {
    const rows = await db.$queryRaw<(WhoColumns & { has_vault: boolean; owned: boolean; saved: boolean })[]>`
      ${WHO(input.sessionTokenHash, input.now)},
      target AS (
        SELECT c.id FROM chats c, who
        WHERE c.id = ${input.chatId}::uuid AND c.user_id = who.user_id AND c.vault AND who.deleted_at IS NULL
          AND EXISTS (SELECT 1 FROM vaults v WHERE v.user_id = who.user_id)
        FOR UPDATE OF c
      ),
      ok AS (
        SELECT target.id FROM target
        WHERE (SELECT COALESCE(MAX(m.position), -1) + 1 FROM messages m WHERE m.chat_id = target.id) = ${input.firstPosition}::int
      ),
      msgs AS (
        INSERT INTO messages (id, chat_id, position, role, content_ciphertext, attachment_ciphertext, created_at)
        SELECT gen_random_uuid(), ok.id, ${input.firstPosition}::int + t.p, t.r, decode(t.c, 'base64'), decode(t.a, 'base64'), ${now}::timestamptz
        FROM ok, jsonb_to_recordset(${messages}::jsonb) AS t(p int, r text, c text, a text)
        RETURNING 1
      ),
      chat AS (
        UPDATE chats SET last_updated = ${now}::timestamptz,
          title_ciphertext = COALESCE(decode(${base64(input.title)}::text, 'base64'), title_ciphertext)
        WHERE id IN (SELECT id FROM ok)
        RETURNING 1
      )
      -- Data-modifying CTEs run to completion whether or not they are read (PostgreSQL).
      SELECT who.*,
        EXISTS (SELECT 1 FROM vaults v WHERE v.user_id = who.user_id) AS has_vault,
        EXISTS (SELECT 1 FROM target) AS owned,
        EXISTS (SELECT 1 FROM ok) AS saved
      FROM who`;
    const row = rows[0];
    return { session: sessionOf(row), hasVault: row?.has_vault ?? false, owned: row?.owned ?? false, saved: row?.saved ?? false };
  } catch (error) {
    if (isUniqueViolation(error)) throw new SaveConflictError();
    throw error;
  }
}

/** A unique index refused a row, through Prisma's model API (P2002) or a raw statement (SQLSTATE 23505). */
function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002") return true;
  const meta = error.meta as { code?: unknown; driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } } | undefined;
  return meta?.code === "23505" || meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation" || meta?.driverAdapterError?.cause?.originalCode === "23505";
}

/**
 * Replace legacy chats by their browser re-encrypted versions (same id, same last_updated), then,
 * when no legacy chat is left, delete the user's server-held data key and VACUUM the key tables.
 * @returns how many chats were replaced and whether the data key is gone.
 * @throws NoVaultError; ChatNotFoundError when an id is not one of the user's legacy chats.
 */
export async function replaceLegacyChats(
  userId: string,
  chats: { chatId: string; title: Uint8Array<ArrayBuffer> | null; messages: SealedMessage[] }[],
): Promise<{ replaced: number; dataKeyDeleted: boolean }> {
  const db = await getDb();
  if (!(await db.vault.count({ where: { userId } }))) throw new NoVaultError();
  const dataKeyDeleted = await db.$transaction(async (tx) => {
    for (const chat of chats) {
      const { count } = await tx.chat.updateMany({
        where: { id: chat.chatId, userId, vault: false },
        data: { vault: true, titleCiphertext: chat.title },
      });
      if (!count) throw new ChatNotFoundError();
      await tx.message.deleteMany({ where: { chatId: chat.chatId } });
      await tx.message.createMany({
        data: chat.messages.map((m, i) => ({
          chatId: chat.chatId,
          position: i,
          role: m.role,
          contentCiphertext: m.content,
          attachmentCiphertext: m.attachment,
        })),
      });
    }
    if (await tx.chat.count({ where: { userId, vault: false } })) return false;
    await tx.dataKey.deleteMany({ where: { userId } });
    return true;
  });
  if (dataKeyDeleted) await vacuumKeyTables();
  return { replaced: chats.length, dataKeyDeleted };
}
