import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient, type Prisma } from "@/lib/server/db/generated/prisma/client";
import { getConfig, type Config } from "@/lib/server/config";
import { acquireDataDirLock, type DataDirLock } from "@/lib/server/db/data-dir-lock";
import { databaseOpenFailed } from "@/lib/server/db/errors";
import { applyMigrations, type SqlRunner } from "@/lib/server/db/migrate";
import { logger } from "@/lib/server/log";
import { processSlot } from "@/lib/server/process-state";
import type { AppError } from "@/lib/shared/errors";

/** The Prisma client over embedded PGlite (a worker thread behind a Unix socket) or PostgreSQL, migrated on open. */

export type { PrismaClient };
export type DatabaseTarget = Config["database"];

export interface DbHandle {
  db: PrismaClient;
  pool: pg.Pool;
  appliedMigrations: string[];
  close(): Promise<void>;
  /** PGlite only: write an archive to `file` (docs/deploy.md "Backups"); @returns its size in bytes. */
  backup?(file: string): Promise<number>;
}

/** Open a client on `target`, migrating first. @throws AppError internal:migration, or the driver's connection error. */
export async function openDb(target: DatabaseTarget, options: { migrate?: boolean } = {}): Promise<DbHandle> {
  if (target.kind === "postgres") return openPostgres(target.url, options);
  return openPglite({ dataDir: target.dataDir, sharedBuffersMb: target.sharedBuffersMb ?? 16, durable: target.durable ?? true }, options);
}

interface PgliteSettings {
  dataDir: string;
  sharedBuffersMb: number;
  durable: boolean;
}

// Read from disk so Next does not bundle it.
const PGLITE_WORKER = path.join(process.cwd(), "lib/server/db/pglite-server.mjs");

interface WorkerFailure {
  ready?: boolean;
  error?: string;
  log?: string;
}

function remedy(text: string): string {
  if (/No space left on device/i.test(text)) return "Free disk space on the folder's file system, then start again.";
  if (/checkpoint record|invalid|corrupt|PANIC|could not read|incorrect checksum/i.test(text)) {
    return "The folder is damaged: restore the last backup into an empty DATA_DIR (npm run db:restore -- <file>, docs/deploy.md).";
  }
  return "Check the folder's permissions and free space; docs/deploy.md \"Embedded database\" lists what to do.";
}

function openFailure(action: string, dataDir: string, m: WorkerFailure): AppError {
  const words = [m.error, m.log].filter((s) => s && s.trim()).join("\n");
  return databaseOpenFailed(`PGlite failed to ${action} ${dataDir}: ${words || "unknown error"}\n${remedy(words)}`);
}

/** @throws AppError internal:database_open */
async function initPglite(settings: PgliteSettings, restoreFrom?: string): Promise<void> {
  const { dataDir } = settings;
  const worker = new Worker(PGLITE_WORKER, { workerData: { ...settings, initOnly: true, restoreFrom } });
  await new Promise<void>((resolve, reject) => {
    worker.once("message", (m: WorkerFailure) => (m.ready ? resolve() : reject(openFailure(restoreFrom ? "restore" : "create", dataDir, m))));
    worker.once("error", reject);
    worker.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`PGlite worker exited with code ${code}`))));
  });
  await new Promise((resolve) => (worker.threadId >= 0 ? worker.once("exit", resolve) : resolve(undefined)));
}

async function openPglite(settings: PgliteSettings, options: { migrate?: boolean }): Promise<DbHandle> {
  const lock = acquireDataDirLock(settings.dataDir);
  try {
    return await openLockedPglite(settings, options, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function openLockedPglite(settings: PgliteSettings, options: { migrate?: boolean }, lock: DataDirLock): Promise<DbHandle> {
  const { dataDir } = settings;
  // A worker of its own, which exits: initdb's memory leaves with it.
  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) await initPglite(settings);
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "hush-pglite-"));
  const worker = new Worker(PGLITE_WORKER, { workerData: { ...settings, socketPath: path.join(socketDir, ".s.PGSQL.5432") } });
  worker.unref();
  const pendingBackups = new Map<number, { resolve(bytes: number): void; reject(error: Error): void }>();
  worker.on("message", (m: { id?: number; bytes?: number; error?: string }) => {
    const waiting = typeof m?.id === "number" ? pendingBackups.get(m.id) : undefined;
    if (!waiting) return;
    pendingBackups.delete(m.id!);
    if (m.error) waiting.reject(new Error(`backup failed: ${m.error}`));
    else waiting.resolve(m.bytes ?? 0);
  });
  let nextBackup = 0;
  const backup = (file: string) =>
    new Promise<number>((resolve, reject) => {
      const id = ++nextBackup;
      pendingBackups.set(id, { resolve, reject });
      worker.postMessage({ op: "backup", id, file: path.resolve(file) });
    });
  let control: net.Server | null = null;
  const stopWorker = async () => {
    await new Promise((resolve) => (control ? control.close(resolve) : resolve(undefined)));
    if (worker.threadId >= 0) {
      const closed = new Promise((resolve) => {
        worker.on("message", (m) => m === "closed" && resolve(m));
        worker.once("exit", resolve);
      });
      worker.postMessage("close");
      await closed;
      await worker.terminate();
    }
    fs.rmSync(socketDir, { recursive: true, force: true });
    lock.release();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once("message", (m: WorkerFailure) => (m.ready ? resolve() : reject(openFailure("open", dataDir, m))));
      worker.once("error", reject);
      worker.once("exit", (code) => reject(databaseOpenFailed(`PGlite worker exited with code ${code} while opening ${dataDir}`)));
    });
    control = await serveControl(path.join(socketDir, "control.sock"), backup);
    lock.setControl(path.join(socketDir, "control.sock"));
  } catch (error) {
    await stopWorker().catch(() => undefined);
    throw error;
  }
  // PGlite is one session: a replacement connection would find the old one's prepared statements; onConnect clears them.
  const pool = new pg.Pool({
    host: socketDir,
    port: 5432,
    user: "postgres",
    database: "postgres",
    max: 1,
    onConnect: (client) => client.query("DEALLOCATE ALL"),
  });
  const opened = await openPool(pool, { ...options, lock: false, txMaxWaitMs: 15_000 }, stopWorker);
  return { ...opened, backup };
}

/** One JSON line in (`{"op":"backup","file":...}`), one out (`{"bytes":n}` or `{"error":...}`). */
async function serveControl(socketPath: string, backup: (file: string) => Promise<number>): Promise<net.Server> {
  const server = net.createServer((socket) => {
    let line = "";
    socket.setEncoding("utf8");
    socket.on("error", () => undefined);
    socket.on("data", (chunk: string) => {
      line += chunk;
      if (line.length > 8_192) return void socket.destroy();
      const end = line.indexOf("\n");
      if (end < 0) return;
      let request: { op?: unknown; file?: unknown } = {};
      try {
        request = JSON.parse(line.slice(0, end)) as typeof request;
      } catch {
      }
      const reply = (body: object) => socket.end(`${JSON.stringify(body)}\n`);
      if (request.op !== "backup" || typeof request.file !== "string" || !path.isAbsolute(request.file)) {
        return reply({ error: "expected {\"op\":\"backup\",\"file\":\"/absolute/path\"}" });
      }
      backup(request.file).then(
        (bytes) => reply({ bytes }),
        (error: Error) => reply({ error: error.message }),
      );
    });
  });
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  return server;
}

/** @throws AppError unavailable:data_dir_in_use, internal:database_open, or Error when the folder is not empty. */
export async function restorePglite(dataDir: string, file: string, sharedBuffersMb = 16, durable = true): Promise<void> {
  const lock = acquireDataDirLock(dataDir);
  try {
    if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
      throw new Error(`${dataDir} is not empty: restore only into an empty DATA_DIR (move the old folder aside first).`);
    }
    await initPglite({ dataDir, sharedBuffersMb, durable }, path.resolve(file));
  } finally {
    lock.release();
  }
}

async function openPostgres(url: string, options: { migrate?: boolean }): Promise<DbHandle> {
  // Prisma's pg adapter reads timestamps without a zone as UTC, so each session is set to UTC.
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5_000, onConnect: (client) => client.query("SET TIME ZONE 'UTC'") });
  return openPool(pool, { ...options, lock: true });
}

async function openPool(
  pool: pg.Pool,
  options: { migrate?: boolean; lock: boolean; txMaxWaitMs?: number },
  afterEnd: () => Promise<void> = async () => undefined,
): Promise<DbHandle> {
  pool.on("error", (error) => logger("db").error({ err: error.message }, "idle database connection error"));
  try {
    let appliedMigrations: string[] = [];
    if (options.migrate !== false) {
      const client = await pool.connect();
      try {
        const runner: SqlRunner = {
          query: async (sql, params) => (await client.query(sql, params)).rows,
          exec: async (sql) => void (await client.query(sql)),
        };
        appliedMigrations = await applyMigrations(runner, { lock: options.lock });
      } finally {
        client.release();
      }
    }
    const db = new PrismaClient({
      adapter: new PrismaPg(pool),
      ...(options.txMaxWaitMs ? { transactionOptions: { maxWait: options.txMaxWaitMs } } : {}),
    });
    return {
      db,
      pool,
      appliedMigrations,
      close: async () => {
        await db.$disconnect();
        await pool.end();
        await afterEnd();
      },
    };
  } catch (error) {
    await pool.end().catch(() => undefined);
    await afterEnd().catch(() => undefined);
    throw error;
  }
}

const store = processSlot<Promise<DbHandle>>("db");

/** The process-wide client, opened on first call; a failed open is not cached. */
export function getDb(): Promise<PrismaClient> {
  return handle().then((h) => h.db);
}

function handle(): Promise<DbHandle> {
  let pending = store.value;
  if (!pending) {
    const opening = openDb(getConfig().database).then((opened) => {
      if (opened.appliedMigrations.length) {
        logger("db").info({ migrations: opened.appliedMigrations }, "applied migrations");
      }
      return opened;
    });
    opening.catch(() => {
      if (store.value === opening) store.value = undefined;
    });
    store.value = opening;
    pending = opening;
  }
  return pending;
}

/** The node-postgres pool under getDb()'s client, for hot reads; not inside a Prisma transaction. */
export function getPool(): Promise<pg.Pool> {
  return handle().then((h) => h.pool);
}

/** One Prisma.sql statement through the pool; untyped parameters need casts. @throws pg.DatabaseError */
export async function rawRows<T extends pg.QueryResultRow>(statement: Prisma.Sql): Promise<T[]> {
  const pool = await getPool();
  const text = statement.text;
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `raw_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`));
  return (await pool.query<T>({ name, text, values: statement.values })).rows;
}

const statementNames = new Map<string, string>();

export async function closeDb(): Promise<void> {
  const pending = store.value;
  store.value = undefined;
  const handle = await pending?.catch(() => undefined);
  await handle?.close();
}
