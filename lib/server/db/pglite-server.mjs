/**
 * PGlite off the server's main thread: this worker thread owns the embedded database and
 * serves it over the PostgreSQL wire protocol on a Unix socket (@electric-sql/pglite-socket), so the
 * app reaches it through node-postgres like any PostgreSQL and a statement's WebAssembly never stalls
 * the event loop that streams answers. Plain JavaScript, loaded from disk by lib/server/db/client.ts (not
 * bundled). One client at a time: PGlite is a single session, and interleaving two clients'
 * extended-protocol messages in it would mix their statements.
 *
 * workerData: { dataDir, socketPath, sharedBuffersMb, durable, initOnly, restoreFrom }. Posts { ready: true } once listening,
 * { error } on failure (with PostgreSQL's own last log lines); answers the message "close" by closing the server and
 * the database, then posts "closed", and { op: "backup", id, file } by writing PGlite's dumpDataDir() archive to
 * `file` (written beside it, flushed, then renamed), then posting { id, bytes } or { id, error }. With
 * `initOnly`, creates the database folder (initdb), closes it and posts { ready: true } without serving: run in a
 * worker of its own before the serving one, so initdb's memory goes with that worker (about 300 MB of the
 * process's RSS otherwise kept for the server's lifetime; README, "Memory at ready"). With `restoreFrom` (a
 * backup archive's path) the new folder is made from that archive instead (npm run db:restore).
 *
 * shared_buffers: PGlite's default is PostgreSQL's 128 MB, held in the WebAssembly memory once touched, the
 * largest part of an embedded server's memory. A small server's database fits far smaller; the buffers are a
 * cache (the data is on disk, durability and results are unchanged). PGLITE_SHARED_BUFFERS_MB sets it.
 *
 * durable (PGLITE_DURABILITY, default on): each commit is on the disk before it is acknowledged
 * (lib/server/db/pglite-durable-fs.mjs); off: PGlite's own defaults, fsync off.
 */
import fs from "node:fs";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { openDurablePglite, syncTree } from "./pglite-durable-fs.mjs";

const { dataDir, socketPath, sharedBuffersMb = 16, durable = true, initOnly = false, restoreFrom } = workerData;
/** PostgreSQL's last log lines (stderr), for a failure's message: "could not locate a valid checkpoint record"... */
const stderr = [];
const onStderr = (line) => {
  stderr.push(String(line));
  if (stderr.length > 40) stderr.shift();
  return false;
};
let db;
let server;
try {
  const loadDataDir = restoreFrom ? new Blob([fs.readFileSync(restoreFrom)]) : undefined;
  db = openDurablePglite(dataDir, { durable, extra: ["-c", `shared_buffers=${sharedBuffersMb}MB`], pglite: { onStderr, loadDataDir } });
  await db.waitReady;
  if (initOnly) {
    await db.close();
    // PGlite writes the new folder from an in-memory initdb without fsync: flushed once here.
    if (durable) syncTree(dataDir);
    parentPort.postMessage({ ready: true });
    process.exit(0);
  }
  // PGlite's default already; Prisma's adapter reads and writes timestamps as UTC (lib/server/db/client.ts).
  await db.exec("SET TIME ZONE 'UTC'");
  await forgetOldLog(db, dataDir);
  // The app's pool holds one client (lib/server/db/client.ts: max 1), so statements never interleave. The
  // server allows a second connection because node-postgres ends a client whose query failed and opens
  // a new one at once: with a limit of 1 that new connection was refused while the old one closed, and
  // the next statement after any SQL error failed ("Server has closed the connection").
  server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 2 });
  await server.start();
  parentPort.postMessage({ ready: true });
} catch (error) {
  await db?.close().catch(() => undefined);
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error), log: postgresLog() });
}

parentPort.on("message", async (message) => {
  if (message?.op === "backup") return void backup(message);
  if (message !== "close") return;
  try {
    await server?.stop();
    await db?.close();
  } finally {
    parentPort.postMessage("closed");
  }
});

/**
 * Old write-ahead log segments are deleted, never renamed for reuse (finding 2): a recycled
 * segment keeps its old records (removed vault keys among them) until they are overwritten, which can take
 * days. PGlite is one backend, so this session's setting is the one its CHECKPOINT uses
 * (lib/server/db/key-vacuum.ts). Segments recycled before this setting (a folder from an older version) are
 * used up now: the log is switched until the current segment is a new, zero-filled one (one switch at each
 * start of a folder that has none).
 */
async function forgetOldLog(db, dir) {
  await db.exec("SET wal_recycle = off");
  const walDir = path.join(dir, "pg_wal");
  for (let i = 0; i < 64; i++) {
    const { rows } = await db.query("SELECT pg_walfile_name(pg_current_wal_insert_lsn()) AS name");
    const ahead = fs.readdirSync(walDir).filter((f) => /^[0-9A-F]{24}$/.test(f) && f > rows[0].name);
    // The current segment may itself be a recycled one (its tail unwritten yet), so the log is switched at
    // least once; a switch with no file ahead moves into one created fresh.
    if (i > 0 && ahead.length === 0) return;
    await db.exec("CHECKPOINT");
    await db.query("SELECT pg_switch_wal()");
    await db.exec("CHECKPOINT");
  }
}


/** PostgreSQL's own error lines from its log (PANIC, FATAL, ERROR and their DETAIL/HINT), newest last. */
function postgresLog() {
  const lines = stderr.flatMap((chunk) => chunk.split("\n")).filter((l) => /\b(PANIC|FATAL|ERROR|DETAIL|HINT):|No space left|could not/.test(l));
  return lines.slice(-6).join("\n");
}

/**
 * Write a consistent archive of the live folder to `file`: PGlite's dumpDataDir holds its query lock, so
 * no statement runs while the files are read; a CHECKPOINT first keeps the log to replay short.
 */
async function backup({ id, file }) {
  try {
    await db.exec("CHECKPOINT");
    const archive = Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer());
    const tmp = `${file}.partial`;
    const fd = fs.openSync(tmp, "w", 0o600);
    try {
      fs.writeSync(fd, archive);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
    parentPort.postMessage({ id, bytes: archive.length });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
}
