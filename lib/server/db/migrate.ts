import fs from "node:fs";
import path from "node:path";
import { createHash, randomUUID } from "node:crypto";
import { migrationFailed } from "@/lib/server/db/errors";
import { logger } from "@/lib/server/log";

/**
 * The app's migration runner (as `prisma migrate deploy`, without the native engine), recorded in
 * `_prisma_migrations` as Prisma does; on the raw driver, since migration scripts hold several statements.
 */

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

/** Prisma's own advisory lock key, so this runner and the Prisma CLI exclude each other. */
const MIGRATION_LOCK_KEY = 72707369;

export interface SqlRunner {
  query<R extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  exec(sql: string): Promise<void>;
}

export interface LocalMigration {
  name: string;
  sql: string;
  checksum: string;
}

export function listMigrations(dir: string = MIGRATIONS_DIR): LocalMigration[] {
  // turbopackIgnore: the folder is read at run time from the app's working directory; without the
  // hint Turbopack traces the whole project into the server output.
  if (!fs.existsSync(/*turbopackIgnore: true*/ dir)) return [];
  return fs
    .readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(/*turbopackIgnore: true*/ path.join(dir, e.name, "migration.sql")))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow extends Record<string, unknown> {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
}

/** `options.lock` takes Prisma's advisory lock. @returns the names applied. @throws AppError internal:migration */
export async function applyMigrations(
  runner: SqlRunner,
  options: { dir?: string; lock?: boolean } = {},
): Promise<string[]> {
  const local = listMigrations(options.dir);
  if (options.lock) await runner.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await runner.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await runner.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed.length) {
      throw migrationFailed(
        `Migration ${failed.map((r) => r.migration_name).join(", ")} failed earlier and is recorded unfinished ` +
          "in _prisma_migrations; fix the database, then mark it rolled back or applied (prisma migrate resolve).",
      );
    }
    const applied = new Map(
      rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => [r.migration_name, r]),
    );
    for (const m of local) {
      const row = applied.get(m.name);
      if (row && row.checksum !== m.checksum) {
        logger("db").warn({ migration: m.name }, "migration was edited after it was applied (checksum differs); not re-applied");
      }
    }
    const done: string[] = [];
    for (const m of local.filter((l) => !applied.has(l.name))) {
      await runner.exec("BEGIN");
      try {
        const id = randomUUID();
        await runner.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 0)`,
          [id, m.checksum, m.name],
        );
        await runner.exec(m.sql);
        await runner.query(
          `UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        await runner.exec("COMMIT");
      } catch (error) {
        await runner.exec("ROLLBACK").catch(() => undefined);
        throw migrationFailed(`Migration ${m.name} failed: ${(error as Error).message}`, error);
      }
      done.push(m.name);
    }
    return done;
  } finally {
    if (options.lock) await runner.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
  }
}
