/**
 * PGlite off the server's main thread (docs/issues.md #12): this worker thread owns the embedded database and
 * serves it over the PostgreSQL wire protocol on a Unix socket (@electric-sql/pglite-socket), so the
 * app reaches it through node-postgres like any PostgreSQL and a statement's WebAssembly never stalls
 * the event loop that streams answers. Plain JavaScript, loaded from disk by lib/server/db/client.ts (not
 * bundled). One client at a time: PGlite is a single session, and interleaving two clients'
 * extended-protocol messages in it would mix their statements.
 *
 * workerData: { dataDir, socketPath }. Posts { ready: true } once listening, { error } on failure;
 * answers the message "close" by closing the server and the database, then posts "closed".
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

const { dataDir, socketPath } = workerData;
let db;
let server;
try {
  db = new PGlite(dataDir);
  await db.waitReady;
  // PGlite's default already; Prisma's adapter reads and writes timestamps as UTC (lib/server/db/client.ts).
  await db.exec("SET TIME ZONE 'UTC'");
  // The app's pool holds one client (lib/server/db/client.ts: max 1), so statements never interleave. The
  // server allows a second connection because node-postgres ends a client whose query failed and opens
  // a new one at once: with a limit of 1 that new connection was refused while the old one closed, and
  // the next statement after any SQL error failed ("Server has closed the connection").
  server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 2 });
  await server.start();
  parentPort.postMessage({ ready: true });
} catch (error) {
  await db?.close().catch(() => undefined);
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
}

parentPort.on("message", async (message) => {
  if (message !== "close") return;
  try {
    await server?.stop();
    await db?.close();
  } finally {
    parentPort.postMessage("closed");
  }
});
