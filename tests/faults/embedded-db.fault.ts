import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  hasBuild,
  Ledger,
  moveUsers,
  runScript,
  saveLoop,
  signInAgain,
  signUpUsers,
  sleep,
  spawnApp,
  startApp,
  startPeers,
  stopApp,
  verify,
  type App,
  type Peers,
  type Row,
  type User,
} from "./harness";

/**
 * The embedded database never loses an acknowledged save (docs/deploy.md "Embedded database"): the built
 * server on one PGlite DATA_DIR, 8 users saving sealed turns at once, and after each fault every save that was
 * answered 200 is read back byte for byte. The cases run in order on one folder; each ends with a check.
 */
const CLIENTS = 8;
const PORT = Number(process.env.FAULT_PORT_BASE ?? 5700);
const rows: Row[] = [];

describe.skipIf(!hasBuild())("embedded database faults (PGlite, built server)", () => {
  let peers: Peers;
  let work: string;
  let dataDir: string;
  let app: App;
  let users: User[];
  const ledger = new Ledger();
  let backupFile: string;
  let backupStartedAt = 0;
  const apps: App[] = [];
  const started = async (dir: string, port: number, env: Record<string, string> = {}) => {
    const a = await startApp(peers, dir, port, env);
    apps.push(a);
    return a;
  };

  beforeAll(async () => {
    peers = await startPeers();
    work = fs.mkdtempSync(path.join(os.tmpdir(), "hush-faults-"));
    dataDir = path.join(work, "data");
    app = await started(dataDir, PORT);
    users = await signUpUsers(peers, app, CLIENTS, "fault");
  });

  afterAll(async () => {
    for (const a of apps) await stopApp(a, "SIGKILL");
    for (const u of users ?? []) u.client.close();
    await peers?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
    console.log(`\nReliability (embedded database, ${CLIENTS} clients saving):\n| fault | acknowledged | lost | duplicated | note |\n|---|---|---|---|---|`);
    for (const r of rows) console.log(`| ${r.fault} | ${r.acknowledged} | ${r.lost} | ${r.duplicated} | ${r.note} |`);
  });

  it("refuses a second server and `npm run plan` on the live folder, with the holder's pid; saves go on", async () => {
    const loop = saveLoop(users, ledger);
    await sleep(1_500);
    const second = spawnApp(peers, dataDir, PORT + 1);
    apps.push(second);
    const t0 = Date.now();
    const { code } = await second.exited;
    const refusedInMs = Date.now() - t0;
    const plan = await runScript("scripts/plan.ts", ["grant", "fault-0@example.test"], { DATA_DIR: dataDir });
    // A backup while saving: asked of the running server through its control socket.
    backupFile = path.join(work, "backup.tar");
    backupStartedAt = Date.now();
    const backup = await runScript("scripts/db-backup.ts", [backupFile], { DATA_DIR: dataDir });
    await sleep(1_000);
    await loop.stop();
    expect(code).not.toBe(0);
    expect(second.output.join("")).toContain(`DATA_DIR ${dataDir} is in use by process ${app.proc.pid} (`);
    expect(refusedInMs).toBeLessThan(30_000);
    expect(plan.code).toBe(1);
    expect(plan.output).toContain(`is in use by process ${app.proc.pid}`);
    expect(plan.output).not.toContain("Pro granted");
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain(`Backup written by the running server (process ${app.proc.pid})`);
    expect(ledger.refused.size, JSON.stringify([...ledger.samples])).toBe(0);
    const result = await verify(users, ledger.acknowledged);
    rows.push({ fault: "second server and `npm run plan` on the live folder", ...result, note: `second server exited ${code} in ${(refusedInMs / 1000).toFixed(1)} s; plan exited ${plan.code} in ${(plan.ms / 1000).toFixed(1)} s` });
    expect(result.lost, result.lostSample.join("; ")).toBe(0);
    expect(result.duplicated).toBe(0);
  });

  it("kill -9 during saves: the stale lock is taken over at the next start, nothing acknowledged is lost", async () => {
    const loop = saveLoop(users, ledger);
    await sleep(3_000);
    await stopApp(app, "SIGKILL");
    await sleep(500);
    await loop.stop();
    expect(fs.existsSync(`${path.join(dataDir, "pglite")}.lock`)).toBe(true);
    app = await started(dataDir, PORT + 2);
    users = moveUsers(users, app);
    const result = await verify(users, ledger.acknowledged);
    rows.push({ fault: "`kill -9` during saves, then a start on the stale lock", ...result, note: `${ledger.refused.get("no answer") ?? 0} saves cut unanswered by the kill (not acknowledged)` });
    expect(result.lost, result.lostSample.join("; ")).toBe(0);
    expect(result.duplicated).toBe(0);
  });

  it("SIGTERM during saves: every save gets an answer, the server exits 0, nothing acknowledged is lost", async () => {
    ledger.refused.clear();
    const before = ledger.acknowledged.length;
    const loop = saveLoop(users, ledger);
    await sleep(3_000);
    const exit = stopApp(app, "SIGTERM");
    const { code } = await exit;
    await loop.stop();
    expect(code).toBe(0);
    // After the exit nothing listens: refused connections, no request sent. A save cut unanswered would be "no answer".
    app = await started(dataDir, PORT + 3);
    users = moveUsers(users, app);
    const result = await verify(users, ledger.acknowledged);
    rows.push({
      fault: "SIGTERM during saves",
      ...result,
      note: `${ledger.acknowledged.length - before} acknowledged in this case; ${ledger.refused.get("503") ?? 0} answered 503 while draining; ${ledger.refused.get("no answer") ?? 0} cut unanswered; ${ledger.refused.get("refused") ?? 0} connections refused after the exit; exit ${code}`,
    });
    expect(result.lost, result.lostSample.join("; ")).toBe(0);
    expect(result.duplicated).toBe(0);
    // A save sent on an idle kept-alive connection just as the drain closes it is reset before the server reads
    // it ("no answer": never acknowledged, kept and resent by the browser); a handled save always gets an answer.
    for (const status of ledger.refused.keys()) expect(["503", "refused", "no answer"], ledger.samples.get(status)).toContain(status);
    expect(ledger.refused.get("no answer") ?? 0).toBeLessThanOrEqual(CLIENTS);
    expect(app.output.join("")).not.toContain("ECONNRESET");
  });

  it("a corrupt folder: the server exits non-zero with PostgreSQL's own message", async () => {
    await stopApp(app, "SIGTERM");
    const copy = path.join(work, "corrupt");
    fs.cpSync(dataDir, copy, { recursive: true });
    fs.rmSync(`${path.join(copy, "pglite")}.lock`, { force: true });
    for (const f of fs.readdirSync(path.join(copy, "pglite", "pg_wal"))) if (/^[0-9A-F]{24}$/.test(f)) fs.rmSync(path.join(copy, "pglite", "pg_wal", f));
    const broken = spawnApp(peers, copy, PORT + 4);
    apps.push(broken);
    const t0 = Date.now();
    const { code } = await broken.exited;
    const out = broken.output.join("");
    rows.push({ fault: "corrupt folder (write-ahead log removed)", acknowledged: 0, lost: 0, duplicated: 0, note: `exited ${code} in ${((Date.now() - t0) / 1000).toFixed(1)} s with PostgreSQL's "could not locate a valid checkpoint record"` });
    expect(code).toBe(1);
    expect(out).toContain("could not locate a valid checkpoint record");
    expect(out).toContain("npm run db:restore");
  });

  it("restore of the backup made while saving: users unlock and read the same ciphertext", async () => {
    const restored = path.join(work, "restored");
    const refused = await runScript("scripts/db-restore.ts", [backupFile], { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("is not empty");
    const restore = await runScript("scripts/db-restore.ts", [backupFile], { DATA_DIR: restored });
    expect(restore.code, restore.output).toBe(0);
    const copy = await started(restored, PORT + 5);
    const again: User[] = [];
    for (const u of users) again.push(await signInAgain(peers, copy, u));
    const inBackup = ledger.before(backupStartedAt);
    const result = await verify(again, inBackup);
    for (const u of again) u.client.close();
    rows.push({ fault: "`npm run db:backup` while saving, then `npm run db:restore`", ...result, note: "saves acknowledged before the backup began; users signed in again and unlocked with their passphrase" });
    expect(inBackup.length).toBeGreaterThan(0);
    expect(result.lost, result.lostSample.join("; ")).toBe(0);
    expect(result.duplicated).toBe(0);
    await stopApp(copy, "SIGTERM");
  });

  it.runIf(process.getuid?.() === 0)("a full disk (tmpfs): saves answer 507, then succeed once space is freed; nothing acknowledged is lost", async () => {
    const mount = path.join(work, "tmpfs");
    fs.mkdirSync(mount);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=160m", "tmpfs", mount]);
    try {
      const small = await started(path.join(mount, "data"), PORT + 6);
      const few = await signUpUsers(peers, small, 2, "full");
      const full = new Ledger();
      // Fill the file system but for a little room, then keep saving.
      const free = () => fs.statfsSync(mount).bavail * fs.statfsSync(mount).bsize;
      const filler = path.join(mount, "filler");
      fs.writeFileSync(filler, Buffer.alloc(Math.max(0, free() - 256 * 1024)));
      const loop = saveLoop(few, full);
      const until = Date.now() + 20_000;
      while (Date.now() < until && !full.refused.has("507")) await sleep(200);
      await sleep(1_000);
      const sample507 = full.samples.get("507") ?? "";
      fs.rmSync(filler);
      const freedAt = Date.now();
      await sleep(3_000);
      await loop.stop();
      const afterFree = full.acknowledged.filter((a) => a.at > freedAt + 1_000).length;
      const result = await verify(few, full.acknowledged);
      rows.push({ fault: "full disk (tmpfs), then freed", ...result, note: `${full.refused.get("507") ?? 0} saves answered 507; ${afterFree} acknowledged after space was freed` });
      for (const u of few) u.client.close();
      await stopApp(small, "SIGTERM");
      expect(full.refused.get("507") ?? 0).toBeGreaterThan(0);
      expect(JSON.parse(sample507).error).toBe("The server has run out of disk space; your message was not saved");
      expect(afterFree).toBeGreaterThan(0);
      expect(result.lost, result.lostSample.join("; ")).toBe(0);
      expect(result.duplicated).toBe(0);
    } finally {
      for (let i = 0; i < 20; i++) {
        try {
          execFileSync("umount", [mount]);
          break;
        } catch {
          await sleep(250);
        }
      }
    }
  });
});
