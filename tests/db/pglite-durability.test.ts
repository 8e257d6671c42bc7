import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/server/config";
import { openDb } from "@/lib/server/db/client";
import { addFsync, openDurablePglite } from "@/lib/server/db/pglite-durable-fs.mjs";

/**
 * The embedded database's commits reach the disk (docs/security.md "Power cut"): with durability on
 * (PGLITE_DURABILITY, the default) every commit makes a real fsync before it is acknowledged, counted at the
 * syscall boundary (node:fs's fsyncSync, which the glue's hook calls, and strace on the worker when present);
 * off, none. PGlite only: PostgreSQL's settings are its operator's.
 */
// Each case starts PGlite (initdb on a fresh folder): 20-30 s apiece on a loaded 2-core machine.
describe.skipIf(Boolean(process.env.DATABASE_URL))("embedded PGlite durability", { timeout: 120_000 }, () => {
  const COMMITS = 20;
  const dirs: string[] = [];
  const fsyncSync = fs.fsyncSync;
  const fdatasyncSync = fs.fdatasyncSync;
  afterEach(() => {
    fs.fsyncSync = fsyncSync;
    fs.fdatasyncSync = fdatasyncSync;
  });
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const fresh = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hush-pglite-durability-"));
    dirs.push(dir);
    return path.join(dir, "pglite");
  };
  /** Count node:fs's fsync and fdatasync calls from now on (observing: each call still goes through). */
  const countSyncs = () => {
    const calls = { fsync: 0, fdatasync: 0 };
    fs.fsyncSync = (fd) => (calls.fsync++, fsyncSync(fd));
    fs.fdatasyncSync = (fd) => (calls.fdatasync++, fdatasyncSync(fd));
    return calls;
  };
  const open = async (dataDir: string, durable: boolean) => {
    const db = openDurablePglite(dataDir, { durable, extra: ["-c", "shared_buffers=16MB"] });
    await db.waitReady;
    return db;
  };
  const commits = async (db: PGlite) => {
    for (let i = 0; i < COMMITS; i++) await db.query("INSERT INTO turns VALUES ($1, $2)", [i, new Uint8Array(2048).fill(i)]);
  };
  const setting = async (db: PGlite, name: string) =>
    (await db.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = $1", [name])).rows[0]?.setting;

  it("makes at least one real fsync per commit, and the rows read back after a reopen", async () => {
    const dataDir = fresh();
    const db = await open(dataDir, true);
    expect(await setting(db, "fsync")).toBe("on");
    expect(await setting(db, "synchronous_commit")).toBe("on");
    expect(await setting(db, "wal_sync_method")).toBe("fsync");
    await db.exec("CREATE TABLE turns (id int PRIMARY KEY, body bytea NOT NULL)");
    const calls = countSyncs();
    await commits(db);
    expect(calls.fsync).toBeGreaterThanOrEqual(COMMITS);
    await db.close();
    const again = await open(dataDir, true);
    expect((await again.query<{ n: number }>("SELECT count(*)::int AS n FROM turns")).rows[0]?.n).toBe(COMMITS);
    await again.close();
  });

  it("makes none with durability off (PGlite's own -F)", async () => {
    const db = await open(fresh(), false);
    expect(await setting(db, "fsync")).toBe("off");
    await db.exec("CREATE TABLE turns (id int PRIMARY KEY, body bytea NOT NULL)");
    const calls = countSyncs();
    await commits(db);
    expect(calls).toEqual({ fsync: 0, fdatasync: 0 });
    await db.close();
  });

  it("refuses the commit when the disk fails its fsync (EIO), not acknowledge it", async () => {
    const db = await open(fresh(), true);
    await db.exec("CREATE TABLE turns (id int PRIMARY KEY, body bytea NOT NULL)");
    fs.fsyncSync = () => {
      throw Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO", errno: -5, syscall: "fsync" });
    };
    // PostgreSQL PANICs on a failed fsync of its log (data_sync_retry=off): the database must be reopened.
    await expect(db.query("INSERT INTO turns VALUES (1, '\\x00')")).rejects.toMatchObject({ severity: "PANIC", message: expect.stringMatching(/could not fsync/) });
    fs.fsyncSync = fsyncSync;
    await db.close().catch(() => undefined);
  });

  it("installs its hook on PGlite's NODEFS, and fails loudly when an upgrade no longer has one", async () => {
    const db = await open(fresh(), true);
    const nodefs = (db as unknown as { Module: { FS: { filesystems: { NODEFS: { stream_ops: { fsync?: unknown } } } } } }).Module.FS.filesystems
      .NODEFS;
    expect(typeof nodefs.stream_ops.fsync).toBe("function");
    await db.close();
    expect(() => addFsync({ FS: { filesystems: {} } })).toThrow(/NODEFS/);
    expect(() => addFsync({ FS: { filesystems: { NODEFS: { stream_ops: {} } } } })).toThrow(/realPath/);
  });

  it("fsyncs a stream with no descriptor of its own by its real path", () => {
    const dir = path.dirname(fresh());
    const stream_ops: { fsync?: (stream: unknown) => number } = {};
    addFsync({ FS: { filesystems: { NODEFS: { stream_ops, realPath: () => dir, tryFSOperation: (f: () => unknown) => f() } } } });
    const calls = countSyncs();
    expect(stream_ops.fsync?.({ node: {} })).toBe(0);
    expect(calls.fsync).toBe(1);
  });

  it("passes PGLITE_DURABILITY to the app's worker: on by default, off when asked", async () => {
    const on = await openDb({ kind: "pglite", dataDir: fresh(), sharedBuffersMb: 8 }, { migrate: false });
    const off = await openDb({ kind: "pglite", dataDir: fresh(), durable: false, sharedBuffersMb: 8 }, { migrate: false });
    try {
      const show = async (pool: typeof on.pool) => (await pool.query("SHOW fsync")).rows[0].fsync as string;
      expect(await show(on.pool)).toBe("on");
      expect((await on.pool.query("SHOW wal_sync_method")).rows[0].wal_sync_method).toBe("fsync");
      expect(await show(off.pool)).toBe("off");
    } finally {
      await on.close();
      await off.close();
    }
  });

  it("reads PGLITE_DURABILITY: on unless set to off, and nothing else", () => {
    const durable = (raw: Record<string, string>) => {
      const { database } = parseConfig({ DATA_DIR: "/tmp/hush-config", ...raw });
      return database.kind === "pglite" ? database.durable : undefined;
    };
    expect(durable({})).toBe(true);
    expect(durable({ PGLITE_DURABILITY: "on" })).toBe(true);
    expect(durable({ PGLITE_DURABILITY: "off" })).toBe(false);
    expect(() => durable({ PGLITE_DURABILITY: "no" })).toThrow(ConfigError);
  });

  const strace = spawnSync("strace", ["-V"]).status === 0;
  it.skipIf(!strace)("counts the worker's real fsync syscalls with strace: one per commit or more, none off", () => {
    const windowed = (durable: "on" | "off") => {
      const trace = path.join(path.dirname(fresh()), "trace.txt");
      const run = spawnSync(
        "strace",
        ["-f", "-o", trace, "-e", "trace=fsync,fdatasync,access,faccessat,faccessat2", process.execPath, "bench/pglite-commits.mjs", String(COMMITS), durable],
        { encoding: "utf8" },
      );
      expect(run.status, run.stderr).toBe(0);
      const lines = fs.readFileSync(trace, "utf8").split("\n");
      const start = lines.findIndex((l) => l.includes("hush-commits-start"));
      const end = lines.findIndex((l) => l.includes("hush-commits-end"));
      expect(start).toBeGreaterThan(-1);
      return lines.slice(start, end).filter((l) => /\b(fsync|fdatasync)\(/.test(l)).length;
    };
    expect(windowed("on")).toBeGreaterThanOrEqual(COMMITS);
    expect(windowed("off")).toBe(0);
  }, 300_000);
});
