import "server-only";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { getConfig, type Config } from "@/lib/config";
import { applyMigrations, type SqlRunner } from "@/lib/db/migrate";

/**
 * The Prisma client (Prisma 7, Rust-free, driver adapters) over either database:
 * - DATABASE_URL unset: embedded PGlite (PostgreSQL in WebAssembly) persisted in DATA_DIR/pglite.
 *   One connection, one process: never open the same folder from two processes at once.
 * - DATABASE_URL set: PostgreSQL through node-postgres.
 * Pending migrations are applied (lib/db/migrate.ts) before a client is handed out.
 */

export type { PrismaClient };
export type DatabaseTarget = Config["database"];

export interface DbHandle {
  db: PrismaClient;
  /** Migrations applied while opening, in order. */
  appliedMigrations: string[];
  /** Disconnect Prisma and close the driver (PGlite lingers about 10 s without it). */
  close(): Promise<void>;
}

/**
 * Open a client on `target`, applying pending migrations first (unless `migrate: false`).
 * Tests and scripts use this directly; the app uses `getDb()`.
 * @throws MigrationError, or the driver's connection error.
 */
export async function openDb(target: DatabaseTarget, options: { migrate?: boolean } = {}): Promise<DbHandle> {
  return target.kind === "pglite" ? openPglite(target.dataDir, options) : openPostgres(target.url, options);
}

async function openPglite(dataDir: string, options: { migrate?: boolean }): Promise<DbHandle> {
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const pglite = new PGlite(dataDir);
  try {
    await pglite.waitReady;
    await pglite.exec("SET TIME ZONE 'UTC'"); // PGlite's default already; Prisma relies on it (see below)
    const runner: SqlRunner = {
      query: async (sql, params) => (await pglite.query<never>(sql, params)).rows,
      exec: async (sql) => void (await pglite.exec(sql)),
    };
    const appliedMigrations = options.migrate === false ? [] : await applyMigrations(runner);
    const db = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
    return {
      db,
      appliedMigrations,
      close: async () => {
        await db.$disconnect();
        await pglite.close();
      },
    };
  } catch (error) {
    await pglite.close().catch(() => undefined);
    throw error;
  }
}

async function openPostgres(url: string, options: { migrate?: boolean }): Promise<DbHandle> {
  // connectionTimeoutMillis: an unreachable server (packets dropped) fails a request in 5 s instead of
  // hanging it; a refused connection fails at once either way (docs/deploy.md "PostgreSQL outage").
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5_000 });
  // Prisma's pg adapter sends and reads timestamps without a zone, as UTC: a session in any other
  // time zone would store shifted instants. Queued first on each new connection.
  pool.on("connect", (client) => void client.query("SET TIME ZONE 'UTC'").catch(() => undefined));
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (error) => console.error(`[db] idle PostgreSQL connection error: ${error.message}`));
  try {
    let appliedMigrations: string[] = [];
    if (options.migrate !== false) {
      const client = await pool.connect();
      try {
        const runner: SqlRunner = {
          query: async (sql, params) => (await client.query(sql, params)).rows,
          exec: async (sql) => void (await client.query(sql)),
        };
        // Several app instances may start together: Prisma's advisory lock serialises them.
        appliedMigrations = await applyMigrations(runner, { lock: true });
      } finally {
        client.release();
      }
    }
    const db = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      db,
      appliedMigrations,
      close: async () => {
        await db.$disconnect();
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}

// On globalThis so that Next's dev hot reload, which re-evaluates modules, keeps one database.
const store = globalThis as typeof globalThis & { __hushDb?: Promise<DbHandle> };

/**
 * The process-wide client for `getConfig().database`, opened (and migrated) on first call.
 * A failed open is not cached: the next call tries again.
 */
export function getDb(): Promise<PrismaClient> {
  let pending = store.__hushDb;
  if (!pending) {
    const opening = openDb(getConfig().database).then((handle) => {
      if (handle.appliedMigrations.length) {
        console.info(`[db] applied migrations: ${handle.appliedMigrations.join(", ")}`);
      }
      return handle;
    });
    opening.catch(() => {
      if (store.__hushDb === opening) store.__hushDb = undefined;
    });
    store.__hushDb = opening;
    pending = opening;
  }
  return pending.then((handle) => handle.db);
}

/** Close the process-wide client (tests, scripts, shutdown); the next `getDb()` opens a new one. */
export async function closeDb(): Promise<void> {
  const pending = store.__hushDb;
  store.__hushDb = undefined;
  const handle = await pending?.catch(() => undefined);
  await handle?.close();
}
