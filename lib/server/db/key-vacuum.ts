import "server-only";
import { getConfig } from "@/lib/server/config";
import { getDb } from "@/lib/server/db/client";
import { logger } from "@/lib/server/log";

/**
 * Physical removal of deleted key material (docs/issues.md #21 and #43, docs/security.md "What the database
 * keeps"): a removed unlock method's wrap, a revoked device's server share, a finished rotation's next-key
 * wrap and a deleted account's wraps.
 *
 * One pass: VACUUM FULL of vault_methods, vault_devices and vaults (each rewritten into new files, the old
 * files unlinked, so no dead tuple keeps a wrap), then the write-ahead log that recorded the deleted rows is
 * moved past and dropped: `pg_switch_wal()` starts a new segment and `CHECKPOINT` puts the redo point in it,
 * so the segments before are removed. They are unlinked rather than renamed for reuse only with
 * `wal_recycle = off` (the embedded PGlite sets it, lib/server/db/pglite-server.mjs; PostgreSQL's operator
 * must, docs/security.md), and only when nothing else keeps them (`wal_keep_size`, archiving, slots).
 *
 * Passes are batched (finding 3): at most one every KEY_VACUUM_INTERVAL_SECONDS in this
 * process; every deletion made before a pass starts is covered by it, so callers arriving meanwhile share
 * the next one. A caller waits for that pass before it answers, so "deleted" still means gone from the
 * database's files when the answer arrives.
 */

interface VacuumState {
  /** The next pass, not yet started: callers arriving now are covered by it. */
  pending: Promise<void> | null;
  /** The pass under way. */
  running: Promise<void> | null;
  /** When the last pass started (ms since the epoch; 0: none yet). */
  lastStart: number;
  /** A missing privilege was reported once (PostgreSQL). */
  warned: boolean;
  /** PostgreSQL's settings that keep old log segments were checked (once per process). */
  checked: boolean;
}

// On globalThis: Next evaluates lib in more than one bundle (lib/server/rate-limit.ts says why), and the
// batching must count every caller of this process.
const shared = globalThis as typeof globalThis & { __hushKeyVacuum?: VacuumState };
const state = (): VacuumState => (shared.__hushKeyVacuum ??= { pending: null, running: null, lastStart: 0, warned: false, checked: false });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Physically remove the key rows deleted before this call: resolves once a pass that started after it has
 * finished (at most KEY_VACUUM_INTERVAL_SECONDS after the previous pass started, plus the pass itself).
 * Outside any transaction (VACUUM cannot run inside one). @throws the database's error if the VACUUM fails.
 */
export function vacuumKeyTables(): Promise<void> {
  const s = state();
  if (s.pending) return s.pending;
  const next = (async () => {
    await s.running?.catch(() => undefined);
    const wait = s.lastStart + getConfig().KEY_VACUUM_INTERVAL_SECONDS * 1000 - Date.now();
    if (wait > 0) await sleep(wait);
    // From here on a deletion may commit after the VACUUM read its table: it needs the pass after this.
    s.pending = null;
    s.lastStart = Date.now();
    const run = runPass(s);
    s.running = run;
    try {
      await run;
    } finally {
      if (s.running === run) s.running = null;
    }
  })();
  s.pending = next;
  return next;
}

async function runPass(s: VacuumState): Promise<void> {
  const db = await getDb();
  const started = performance.now();
  await db.$executeRawUnsafe("VACUUM FULL vault_methods");
  await db.$executeRawUnsafe("VACUUM FULL vault_devices");
  // A finished rotation clears the next key's wrap (under the old key) from this row.
  await db.$executeRawUnsafe("VACUUM FULL vaults");
  try {
    await db.$queryRawUnsafe("SELECT pg_switch_wal()::text");
    await db.$executeRawUnsafe("CHECKPOINT");
  } catch (error) {
    // PostgreSQL without the privileges (superuser, or EXECUTE on pg_switch_wal and pg_checkpoint): the
    // log keeps the rows until its segments are recycled (docs/security.md says how long).
    if (!s.warned) {
      s.warned = true;
      logger("db").warn({ err: error instanceof Error ? error.message : "unknown" }, "could not switch and checkpoint the write-ahead log after removing keys");
    }
  }
  if (!s.checked && getConfig().database.kind === "postgres") await warnAboutKeptWal(s);
  logger("db").info({ ms: Math.round(performance.now() - started) }, "key tables vacuumed");
}

/** Say once which PostgreSQL setting keeps old log segments (and so removed keys) readable. */
async function warnAboutKeptWal(s: VacuumState): Promise<void> {
  s.checked = true;
  const db = await getDb();
  const [row] = await db.$queryRawUnsafe<{ recycle: string; keep: string; archive: string; slots: number }[]>(
    `SELECT current_setting('wal_recycle') AS recycle, current_setting('wal_keep_size') AS keep,
            current_setting('archive_mode') AS archive, (SELECT count(*)::int FROM pg_replication_slots) AS slots`,
  );
  const kept = [
    row?.recycle === "on" ? "wal_recycle = on (old segments are renamed for reuse, their bytes kept until overwritten)" : null,
    row && row.keep !== "0" ? `wal_keep_size = ${row.keep}` : null,
    row && row.archive !== "off" ? `archive_mode = ${row.archive}` : null,
    row?.slots ? `${row.slots} replication slot(s)` : null,
  ].filter(Boolean);
  if (kept.length) {
    logger("db").warn({ settings: kept }, "removed vault keys stay in old write-ahead log segments: see docs/security.md");
  }
}
