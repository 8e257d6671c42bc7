import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb, restorePglite, type DbHandle } from "@/lib/server/db/client";
import { errorResponse } from "@/lib/server/http";
import { acquireDataDirLock, currentHolder, dataDirHolder, lockFileOf, readLock, type LockHolder } from "@/lib/server/db/data-dir-lock";

/**
 * One process per embedded data folder (docs/issues.md #53): the lock refuses a second opener with the holder's pid
 * and program, takes over only a lock whose holder is proven gone, and db:backup / db:restore work beside a
 * running holder. Child processes are real programs (`npm run plan`'s script, `sleep`), not stand-ins.
 */
describe.skipIf(Boolean(process.env.DATABASE_URL))("DATA_DIR lock", () => {
  const dirs: string[] = [];
  const open: DbHandle[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    for (const handle of open) await handle.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const fresh = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hush-lock-"));
    dirs.push(dir);
    return dir;
  };
  /** Run a command's script as `npm run` does, without blocking this process (which may be the holder it asks). */
  const runScript = (script: string, args: string[], dataDir: string) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "--conditions=react-server", script, ...args], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "development" },
        timeout: 60_000,
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      child.once("close", (status) => resolve({ status, stdout, stderr }));
    });
  const startTicks = (pid: number) => Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]);
  const writeLock = (pgliteDir: string, holder: Partial<LockHolder>) =>
    fs.writeFileSync(lockFileOf(pgliteDir), JSON.stringify({ ...currentHolder(), ...holder }));

  it("refuses `npm run plan` on a folder a live process holds, naming the process, and leaves the folder working", async () => {
    const dataDir = fresh();
    const handle = await openDb({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    open.push(handle);
    await handle.pool.query("INSERT INTO quota_counters (subject, day, count) VALUES ('v:lock', '2026-12-01', 7)");
    // Refused, not queued: the holder stays open to the end, so a script that waited for the lock would never exit.
    const plan = await runScript("scripts/plan.ts", ["grant", "someone@example.test"], dataDir);
    expect(plan.status).toBe(1);
    expect(plan.stderr).toContain(`DATA_DIR ${dataDir} is in use by process ${process.pid} (`);
    expect(plan.stdout).not.toContain("Pro granted");
    expect((await handle.pool.query("SELECT count FROM quota_counters WHERE subject = 'v:lock'")).rows[0].count).toBe(7);
  }, 120_000);

  it.runIf(fs.existsSync("/proc/self/stat"))("takes over a lock whose process is gone, or whose pid now names another process; never a live one", async () => {
    const pgliteDir = path.join(fresh(), "pglite");
    const sleeper = spawn("sleep", ["60"]);
    children.push(sleeper);
    const pid = sleeper.pid!;
    writeLock(pgliteDir, { pid, startTicks: startTicks(pid), command: "sleep" });
    let refusal: unknown;
    try {
      acquireDataDirLock(pgliteDir);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ code: "unavailable:data_dir_in_use", status: 503 });
    expect(dataDirHolder(refusal)).toMatchObject({ pid, command: "sleep" });
    // A route never answers the lock's paths: the generic 503.
    const answer = errorResponse(refusal, "test");
    expect(answer.status).toBe(503);
    expect(await answer.text()).not.toContain(path.dirname(pgliteDir));
    expect(() => acquireDataDirLock(pgliteDir)).toThrow(`is in use by process ${pid} (sleep)`);
    // The same pid with another start time: the holder died and its pid was reused.
    writeLock(pgliteDir, { pid, startTicks: startTicks(pid) - 1 });
    const reused = acquireDataDirLock(pgliteDir);
    expect(readLock(pgliteDir)?.pid).toBe(process.pid);
    reused.release();
    expect(fs.existsSync(lockFileOf(pgliteDir))).toBe(false);
    // Killed with SIGKILL: its lock stays behind and is taken over.
    writeLock(pgliteDir, { pid, startTicks: startTicks(pid), command: "sleep" });
    const reaped = new Promise((resolve) => sleeper.once("exit", resolve));
    sleeper.kill("SIGKILL");
    await reaped;
    const taken = acquireDataDirLock(pgliteDir);
    expect(readLock(pgliteDir)?.nonce).not.toBe("");
    taken.release();
  });

  it("never takes over a lock held on another host (a container sharing the volume)", () => {
    const pgliteDir = path.join(fresh(), "pglite");
    writeLock(pgliteDir, { pid: 1, startTicks: 1, hostname: `${os.hostname()}-elsewhere`, command: "node server.mjs" });
    expect(() => acquireDataDirLock(pgliteDir)).toThrow(`is in use by process 1 on host ${os.hostname()}-elsewhere (node server.mjs)`);
  });

  it("backs up a folder while its holder serves it, restores only into an empty DATA_DIR, and the copy reads the same bytes", async () => {
    const dataDir = fresh();
    const handle = await openDb({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    open.push(handle);
    const ciphertext = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131) % 256));
    await handle.pool.query("CREATE TABLE backup_probe (id int PRIMARY KEY, data bytea)");
    await handle.pool.query("INSERT INTO backup_probe VALUES (1, $1)", [ciphertext]);
    const file = path.join(fresh(), "hush.backup.tar");
    const backup = await runScript("scripts/db-backup.ts", [file], dataDir);
    expect(backup.stderr).toBe("");
    expect(backup.stdout).toContain(`Backup written by the running server (process ${process.pid})`);
    expect(fs.statSync(file).size).toBeGreaterThan(1_000_000);
    // A write after the backup is not in it.
    await handle.pool.query("INSERT INTO backup_probe VALUES (2, $1)", [ciphertext]);

    const occupied = await runScript("scripts/db-restore.ts", [file], dataDir);
    expect(occupied.status).not.toBe(0);
    const target = fresh();
    fs.mkdirSync(path.join(target, "pglite"));
    fs.writeFileSync(path.join(target, "pglite", "stray"), "x");
    await expect(restorePglite(path.join(target, "pglite"), file)).rejects.toThrow("is not empty");
    fs.rmSync(path.join(target, "pglite"), { recursive: true });
    const restore = await runScript("scripts/db-restore.ts", [file], target);
    expect(restore.status, restore.stderr).toBe(0);
    const restored = await openDb({ kind: "pglite", dataDir: path.join(target, "pglite") });
    open.push(restored);
    const rows = (await restored.pool.query("SELECT id, data FROM backup_probe ORDER BY id")).rows as { id: number; data: Buffer }[];
    expect(rows.map((r) => r.id)).toEqual([1]);
    expect(Buffer.compare(rows[0]!.data, ciphertext)).toBe(0);
    // Three scripts started through tsx and two PGlite opens: past 30 s on a loaded 2-core machine.
  }, 180_000);
});
