/**
 * Commits that reach the disk on the embedded database (docs/security.md "Power cut"). PGlite's Emscripten glue
 * (@electric-sql/pglite 0.5.x, dist/pglite.js) turns PostgreSQL's fsync() into `stream.stream_ops.fsync(stream)`
 * (_fd_sync), which its Node file system NODEFS does not define, so nothing is ever flushed; fdatasync()
 * (__syscall_fdatasync) is a stub that returns 0 and no hook reaches. Hence:
 * - DurableNodeFS: PGlite's NodeFS (the supported `fs` option) whose NODEFS gets an fsync stream op calling
 *   fs.fsyncSync on the real file or directory;
 * - durableStartParams: PostgreSQL's start parameters without `-F` (fsync off), with fsync=on,
 *   synchronous_commit=on and wal_sync_method=fsync, so the log's flush at each commit goes through fsync().
 * Plain JavaScript: loaded by the PGlite worker (lib/server/db/pglite-server.mjs), which Next does not bundle.
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";

/**
 * Give the module's NODEFS an fsync stream op: fs.fsyncSync(stream.nfd) for a stream NODEFS opened (files, and
 * directories, which PostgreSQL fsyncs after a create or rename: fsync_fname), and for a stream without a real
 * descriptor its real path opened read-only, fsynced and closed. A failure throws an Emscripten ErrnoError (NODEFS.tryFSOperation
 * maps Node's code, e.g. EIO), which _fd_sync returns to PostgreSQL as fsync()'s error: PostgreSQL then PANICs
 * rather than go on with data it may have lost (its rule since 12, data_sync_retry=off).
 * @param mod the Emscripten module PGlite passes to preRun (mod.FS.filesystems.NODEFS).
 * @throws Error when the module has no NODEFS stream ops (a PGlite upgrade renamed them): durability must not
 *   be silently lost.
 */
export function addFsync(mod) {
  const nodefs = mod?.FS?.filesystems?.NODEFS;
  if (!nodefs?.stream_ops || typeof nodefs.realPath !== "function" || typeof nodefs.tryFSOperation !== "function") {
    throw new Error("PGlite's Emscripten module has no NODEFS stream_ops/realPath/tryFSOperation: its fsync hook cannot be installed");
  }
  nodefs.stream_ops.fsync = (stream) => {
    nodefs.tryFSOperation(() => (typeof stream.nfd === "number" ? fs.fsyncSync(stream.nfd) : fsyncPath(nodefs.realPath(stream.node))));
    return 0;
  };
}

/** fsync the file or directory at `file` (opened read-only, then closed). @throws Node's fs error (EIO, ENOENT…). */
function fsyncPath(file) {
  const fd = fs.openSync(file, fs.constants.O_RDONLY);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * fsync every file and directory under `dir`, then `dir` and its parent (the folder's own entry): for a folder
 * written without fsync (PGlite copies a new database in from an in-memory initdb). Symbolic links are not
 * followed (PostgreSQL's data folder has none unless an operator added a tablespace).
 * @throws Node's fs error (EIO, ENOENT…).
 */
export function syncTree(dir) {
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() || entry.isDirectory()) fsyncPath(path.join(entry.parentPath ?? entry.path, entry.name));
  }
  fsyncPath(dir);
  fsyncPath(path.dirname(path.resolve(dir)));
}

/**
 * PGlite's NodeFS (the folder `dataDir` mounted as PostgreSQL's data directory) whose fsync() reaches the disk
 * (addFsync, run in preRun after NodeFS's own mount).
 */
export class DurableNodeFS extends NodeFS {
  /** @param dataDir the database folder (created if missing, as NodeFS does). */
  constructor(dataDir) {
    super(dataDir);
  }

  /** NodeFS's Emscripten options with addFsync appended to preRun. */
  async init(pg, emscriptenOpts) {
    const { emscriptenOpts: opts } = await super.init(pg, emscriptenOpts);
    return { emscriptenOpts: { ...opts, preRun: [...(opts.preRun ?? []), addFsync] } };
  }
}

/**
 * PostgreSQL's start parameters for PGlite: PGlite.defaultStartParams plus `extra` (pairs such as
 * ["-c", "shared_buffers=16MB"]). `durable`: without `-F`, with fsync, synchronous_commit and
 * wal_sync_method=fsync (fdatasync, Linux's default method, is a no-op in PGlite's glue); otherwise PGlite's own
 * defaults (fsync off).
 * @param {{ durable: boolean, extra?: string[] }} options
 * @returns {string[]}
 */
export function durableStartParams({ durable, extra = [] }) {
  if (!durable) return [...PGlite.defaultStartParams, ...extra];
  return [
    ...PGlite.defaultStartParams.filter((p) => p !== "-F"),
    "-c",
    "fsync=on",
    "-c",
    "synchronous_commit=on",
    "-c",
    "wal_sync_method=fsync",
    ...extra,
  ];
}

/**
 * A PGlite on `dataDir` with the worker's settings: with `durable` on, DurableNodeFS and durableStartParams;
 * off, PGlite's defaults (fsync off, no hook). Await `waitReady` before use.
 * @param {string} dataDir
 * @param {{ durable: boolean, extra?: string[], pglite?: import("@electric-sql/pglite").PGliteOptions }} options
 *   `pglite`: further PGlite options (onStderr, loadDataDir).
 * @returns {PGlite}
 */
export function openDurablePglite(dataDir, { durable, extra = [], pglite = {} }) {
  const startParams = durableStartParams({ durable, extra });
  return durable ? new PGlite({ ...pglite, fs: new DurableNodeFS(dataDir), startParams }) : new PGlite(dataDir, { ...pglite, startParams });
}
