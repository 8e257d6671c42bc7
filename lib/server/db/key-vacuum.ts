import "server-only";
import { getConfig } from "@/lib/server/config";
import { getDb } from "@/lib/server/db/client";
import { logger } from "@/lib/server/log";
import { processSlot } from "@/lib/server/process-state";

/**
 * Physical removal of deleted key material (docs/security.md "What the database keeps"): VACUUM FULL of the key
 * tables, then a WAL switch and CHECKPOINT; passes batched, one per KEY_VACUUM_INTERVAL_SECONDS.
 */

interface VacuumState {
  pending: Promise<void> | null;
  running: Promise<void> | null;
  lastStart: number;
  warned: boolean;
  checked: boolean;
}

// One per process: the batching must count every bundle's callers.
const shared = processSlot<VacuumState>("keyVacuum");
const state = (): VacuumState => (shared.value ??= { pending: null, running: null, lastStart: 0, warned: false, checked: false });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once a pass started after this call has finished. @throws the VACUUM's error */
export function vacuumKeyTables(): Promise<void> {
  const s = state();
  if (s.pending) return s.pending;
  const next = (async () => {
    await s.running?.catch(() => undefined);
    const wait = s.lastStart + getConfig().KEY_VACUUM_INTERVAL_SECONDS * 1000 - Date.now();
    if (wait > 0) await sleep(wait);
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
  await db.$executeRawUnsafe("VACUUM FULL vaults");
  try {
    await db.$queryRawUnsafe("SELECT pg_switch_wal()::text");
    await db.$executeRawUnsafe("CHECKPOINT");
  } catch (error) {
    // Without the privileges the log keeps the rows until recycled (docs/security.md).
    if (!s.warned) {
      s.warned = true;
      logger("db").warn({ err: error instanceof Error ? error.message : "unknown" }, "could not switch and checkpoint the write-ahead log after removing keys");
    }
  }
  if (!s.checked && getConfig().database.kind === "postgres") await warnAboutKeptWal(s);
  logger("db").info({ ms: Math.round(performance.now() - started) }, "key tables vacuumed");
}

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
