import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "@/lib/server/db/client";

/**
 * The embedded database's memory settings (README "Memory at ready", docs/issues.md #42): a new PGlite folder is
 * made by a worker of its own, and the serving worker runs with PGLITE_SHARED_BUFFERS_MB of shared_buffers.
 * PGlite only: PostgreSQL's settings are its operator's.
 */
// Each case starts PGlite on a fresh folder (initdb): past 30 s on a loaded 2-core machine.
describe.skipIf(Boolean(process.env.DATABASE_URL))("embedded PGlite settings", { timeout: 120_000 }, () => {
  const dirs: string[] = [];
  const open: DbHandle[] = [];
  afterAll(async () => {
    for (const handle of open) await handle.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const fresh = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hush-pglite-settings-"));
    dirs.push(dir);
    return path.join(dir, "pglite");
  };
  const sharedBuffers = async (handle: DbHandle) => (await handle.pool.query("SHOW shared_buffers")).rows[0].shared_buffers as string;

  it("creates a new folder, migrates it and serves it with 16 MB of shared buffers by default", async () => {
    const dataDir = fresh();
    const handle = await openDb({ kind: "pglite", dataDir });
    open.push(handle);
    expect(fs.existsSync(path.join(dataDir, "PG_VERSION"))).toBe(true);
    expect(await sharedBuffers(handle)).toBe("16MB");
    expect((await handle.pool.query("SELECT count(*)::int AS n FROM users")).rows[0].n).toBe(0);
  });

  it("takes the configured size, and reopens an existing folder with it", async () => {
    const dataDir = fresh();
    const first = await openDb({ kind: "pglite", dataDir, sharedBuffersMb: 24 });
    expect(await sharedBuffers(first)).toBe("24MB");
    await first.pool.query("INSERT INTO quota_counters (subject, day, count) VALUES ('v:test', '2026-11-28', 1)");
    await first.close();
    const again = await openDb({ kind: "pglite", dataDir, sharedBuffersMb: 8 });
    open.push(again);
    expect(await sharedBuffers(again)).toBe("8MB");
    expect((await again.pool.query("SELECT count FROM quota_counters WHERE subject = 'v:test'")).rows[0].count).toBe(1);
  });
});
