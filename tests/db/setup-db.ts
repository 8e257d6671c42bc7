/**
 * A fresh, isolated database for one test file, reached through the app's own path (getConfig ->
 * getDb, migrations included):
 * - default: embedded PGlite in a new temporary DATA_DIR, removed afterwards;
 * - DATABASE_URL set (`DATABASE_URL=postgresql://root@127.0.0.1:5432/test npx vitest run tests/db`):
 *   a new database hush_t_<random> created on that server through `pg` and dropped afterwards, so
 *   runs and files never collide.
 * `cleanup()` restores process.env.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { getConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { closeDb, getDb, type DatabaseTarget, type PrismaClient } from "@/lib/server/db/client";

const ENV_KEYS = ["DATA_DIR", "DATABASE_URL", "KEY_VACUUM_INTERVAL_SECONDS"] as const;

export interface TestDb {
  db: PrismaClient;
  target: DatabaseTarget;
  dataDir: string;
  cleanup(): Promise<void>;
}

/** Point the app's config at a fresh database and open it. */
export async function setupTestDb(): Promise<TestDb> {
  const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hush-db-test-"));
  const serverUrl = process.env.DATABASE_URL;
  let dbName: string | undefined;
  if (serverUrl) {
    dbName = `hush_t_${randomBytes(6).toString("hex")}`;
    await withAdmin(serverUrl, async (c) => {
      await c.query(`CREATE DATABASE ${dbName}`);
      // An unusual session time zone (UTC+12:45/13:45) exposes any timestamp that loses its zone.
      await c.query(`ALTER DATABASE ${dbName} SET timezone TO 'Pacific/Chatham'`);
    });
    const url = new URL(serverUrl);
    url.pathname = `/${dbName}`;
    process.env.DATABASE_URL = url.toString();
  } else {
    // The run's freshly created folder (tests/helpers/pglite-template-setup.ts): initdb took 5-40 s of each
    // file's set-up on this 2-core machine, always the same. Migrations, the lock and the worker still run here.
    const template = inject("pgliteTemplate");
    if (template) fs.cpSync(template, path.join(dataDir, "pglite"), { recursive: true });
  }
  process.env.DATA_DIR = dataDir;
  // A pass per deletion unless a test sets the interval: tests make many deletions in a row.
  process.env.KEY_VACUUM_INTERVAL_SECONDS ??= "0";
  resetConfigForTests();
  const db = await getDb();
  return {
    db,
    target: getConfig().database,
    dataDir,
    cleanup: async () => {
      await closeDb();
      if (serverUrl && dbName) {
        await withAdmin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
      for (const k of ENV_KEYS) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
      resetConfigForTests();
    },
  };
}

/**
 * An extra empty PostgreSQL database on the DATABASE_URL server for the duration of `fn`
 * (tests that need an unmigrated database). Only when the suite runs against PostgreSQL.
 */
export async function withScratchPostgres<T>(serverUrl: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `hush_t_${randomBytes(6).toString("hex")}`;
  await withAdmin(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return await fn(url.toString());
  } finally {
    await withAdmin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Create a user row and return its id. */
export async function createUser(db: PrismaClient, email?: string): Promise<string> {
  const user = await db.user.create({ data: { email: email ?? `${randomBytes(6).toString("hex")}@example.test` } });
  return user.id;
}

/**
 * Whether the relation files of `t`'s PGlite database (PGDATA/base, i.e. every table and index, not the
 * write-ahead log) hold `bytes`. The WAL keeps a record of each insert until its segment is recycled;
 * docs/privacy.md says so.
 */
export function tableFilesHold(t: TestDb, bytes: Buffer): boolean {
  const root = path.join(t.dataDir, "pglite", "base");
  let hit = false;
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.readFileSync(p).includes(bytes)) hit = true;
    }
  };
  walk(root);
  return hit;
}
