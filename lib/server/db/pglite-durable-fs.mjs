/** Commits that reach the disk on PGlite (docs/security.md "Power cut"): its NODEFS has no fsync stream op. */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";

/**
 * Give NODEFS an fsync stream op; a failure reaches PostgreSQL as fsync()'s error, which then PANICs.
 * @param mod the Emscripten module PGlite passes to preRun (mod.FS.filesystems.NODEFS).
 * @throws Error when the module has no NODEFS stream ops: durability must not be silently lost.
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

/** @throws Node's fs error. */
function fsyncPath(file) {
  const fd = fs.openSync(file, fs.constants.O_RDONLY);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** fsync everything under `dir`, then `dir` and its parent. @throws Node's fs error. */
export function syncTree(dir) {
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() || entry.isDirectory()) fsyncPath(path.join(entry.parentPath ?? entry.path, entry.name));
  }
  fsyncPath(dir);
  fsyncPath(path.dirname(path.resolve(dir)));
}

export class DurableNodeFS extends NodeFS {
  /** @param dataDir the database folder (created if missing, as NodeFS does). */
  constructor(dataDir) {
    super(dataDir);
  }

  async init(pg, emscriptenOpts) {
    const { emscriptenOpts: opts } = await super.init(pg, emscriptenOpts);
    return { emscriptenOpts: { ...opts, preRun: [...(opts.preRun ?? []), addFsync] } };
  }
}

/**
 * `durable`: without `-F`, with fsync and wal_sync_method=fsync (fdatasync is a no-op in PGlite's glue).
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
 * Await `waitReady` before use.
 * @param {string} dataDir
 * @param {{ durable: boolean, extra?: string[], pglite?: import("@electric-sql/pglite").PGliteOptions }} options
 * @returns {PGlite}
 */
export function openDurablePglite(dataDir, { durable, extra = [], pglite = {} }) {
  const startParams = durableStartParams({ durable, extra });
  return durable ? new PGlite({ ...pglite, fs: new DurableNodeFS(dataDir), startParams }) : new PGlite(dataDir, { ...pglite, startParams });
}
