/**
 * A worker thread that owns PGlite and serves it over the PostgreSQL wire protocol on a Unix socket.
 * workerData: { dataDir, socketPath, sharedBuffersMb, durable, initOnly, restoreFrom }. Posts { ready: true } or
 * { error }; "close" → "closed"; { op: "backup", id, file } → { id, bytes } or { id, error }.
 */
import fs from "node:fs";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { openDurablePglite, syncTree } from "./pglite-durable-fs.mjs";

const { dataDir, socketPath, sharedBuffersMb = 16, durable = true, initOnly = false, restoreFrom } = workerData;
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
    // PGlite writes the new folder from an in-memory initdb without fsync.
    if (durable) syncTree(dataDir);
    parentPort.postMessage({ ready: true });
    process.exit(0);
  }
  await db.exec("SET TIME ZONE 'UTC'");
  await forgetOldLog(db, dataDir);
  // node-postgres opens a new client at once after a failed query, before the old one has closed.
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

/** Old log segments are deleted, never recycled: a recycled one keeps removed vault keys until overwritten. */
async function forgetOldLog(db, dir) {
  await db.exec("SET wal_recycle = off");
  const walDir = path.join(dir, "pg_wal");
  for (let i = 0; i < 64; i++) {
    const { rows } = await db.query("SELECT pg_walfile_name(pg_current_wal_insert_lsn()) AS name");
    const ahead = fs.readdirSync(walDir).filter((f) => /^[0-9A-F]{24}$/.test(f) && f > rows[0].name);
    if (i > 0 && ahead.length === 0) return;
    await db.exec("CHECKPOINT");
    await db.query("SELECT pg_switch_wal()");
    await db.exec("CHECKPOINT");
  }
}


function postgresLog() {
  const lines = stderr.flatMap((chunk) => chunk.split("\n")).filter((l) => /\b(PANIC|FATAL|ERROR|DETAIL|HINT):|No space left|could not/.test(l));
  return lines.slice(-6).join("\n");
}

/** dumpDataDir holds PGlite's query lock, so the archive is consistent. */
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
