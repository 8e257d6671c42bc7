/**
 * N committed INSERTs through the PGlite worker the app runs (lib/server/db/pglite-server.mjs, over its Unix
 * socket, as lib/server/db/client.ts opens it), for counting the real fsync calls from outside:
 *   strace -f -c -e trace=fsync,fdatasync node bench/pglite-commits.mjs 1000 [on|off]
 * or, to count only the commits' own calls, trace to a file with access,faccessat,faccessat2 too: the commits
 * run between an access() of ".../hush-commits-start" and one of ".../hush-commits-end".
 * Creates a throwaway folder (initdb in an init-only worker first, as the app does), then serves it, runs the
 * setup, prints a JSON line `{ commits, durable, ms }` after the timed commits, and removes the folder. Plain
 * JavaScript so strace sees node itself, not a TypeScript loader.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import pg from "pg";

const commits = Number(process.argv[2] ?? 1000);
const durable = (process.argv[3] ?? "on") === "on";
const worker = new URL("../lib/server/db/pglite-server.mjs", import.meta.url);
const root = fs.mkdtempSync(path.join(os.tmpdir(), "hush-commits-"));
const dataDir = path.join(root, "pglite");
const socketPath = path.join(root, ".s.PGSQL.5432");

/** Start the worker with `data` and wait for its first message. @throws Error on its { error }. */
async function start(data) {
  const w = new Worker(worker, { workerData: data });
  const m = await new Promise((resolve, reject) => {
    w.once("message", resolve);
    w.once("error", reject);
  });
  if (!m.ready) throw new Error(`PGlite worker: ${m.error}`);
  return w;
}

try {
  const init = await start({ dataDir, durable, initOnly: true });
  await new Promise((resolve) => init.once("exit", resolve));
  const server = await start({ dataDir, durable, socketPath });
  const client = new pg.Client({ host: root, port: 5432, user: "postgres", database: "postgres" });
  await client.connect();
  await client.query("CREATE TABLE turns (id int PRIMARY KEY, body bytea NOT NULL)");
  const body = Buffer.alloc(2048, 7);
  // Markers for a trace: an access() of a path that does not exist, just before and after the timed commits.
  fs.existsSync(path.join(root, "hush-commits-start"));
  const t0 = performance.now();
  for (let i = 0; i < commits; i++) await client.query("INSERT INTO turns VALUES ($1, $2)", [i, body]);
  const ms = performance.now() - t0;
  fs.existsSync(path.join(root, "hush-commits-end"));
  console.log(JSON.stringify({ commits, durable, ms: Math.round(ms) }));
  await client.end();
  const closed = new Promise((resolve) => server.once("message", resolve));
  server.postMessage("close");
  await closed;
  await server.terminate();
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
