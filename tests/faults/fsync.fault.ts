import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveTurn } from "../../scripts/deploy/vault";
import { hasBuild, moveUsers, signUpUsers, startApp, startPeers, stopApp, type App, type Peers } from "./harness";

const hasStrace = (() => {
  try {
    execFileSync("strace", ["-V"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
})();

/** fsync and fdatasync calls in an `strace -c` summary file. */
function syncCalls(summary: string): number {
  let calls = 0;
  for (const line of summary.split("\n")) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(fsync|fdatasync)\s*$/.exec(line);
    if (m) calls += Number(m[1]);
  }
  return calls;
}

/**
 * Commits that reach the disk on the built server (docs/security.md "Power cut"): the production server under
 * strace, counting the real fsync/fdatasync system calls of all its threads while one client saves turns one after
 * another. Each saved turn is one commit, so the calls must at least match the saves, beyond those of a start
 * and stop with no save at all.
 */
describe.skipIf(!hasBuild() || !hasStrace)("durable commits on the built server (strace)", () => {
  let peers: Peers;
  let work: string;
  const apps: App[] = [];
  /** The servers strace started (killing strace leaves its tracee running). */
  const traced: number[] = [];
  beforeAll(async () => {
    peers = await startPeers();
    work = fs.mkdtempSync(path.join(os.tmpdir(), "hush-fsync-"));
  });
  afterAll(async () => {
    for (const pid of traced) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    for (const a of apps) await stopApp(a, "SIGKILL");
    await peers?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const run = async (saves: number, port: number, durability: "on" | "off") => {
    const dataDir = path.join(work, `data-${port}`);
    // A first start makes the folder (and flushes it once), outside the count.
    const first = await startApp(peers, dataDir, port, { PGLITE_DURABILITY: durability });
    apps.push(first);
    const [user] = await signUpUsers(peers, first, 1, `fsync-${port}`);
    await stopApp(first);
    const summary = path.join(work, `strace-${port}.txt`);
    const app = await startApp(peers, dataDir, port, { PGLITE_DURABILITY: durability }, ["strace", "-f", "--seccomp-bpf", "-c", "-o", summary, "-e", "trace=fsync,fdatasync"]);
    apps.push(app);
    const server = Number(execFileSync("pgrep", ["-P", String(app.proc.pid)], { encoding: "utf8" }).trim().split("\n")[0]);
    traced.push(server);
    const { client, vault } = moveUsers([user!], app)[0]!;
    for (let i = 0; i < saves; i++) {
      const saved = await saveTurn(client, vault, null, 0, [
        { role: "user", content: `fsync question ${i}` },
        { role: "assistant", content: `fsync answer ${i}` },
      ]);
      expect(saved.status, saved.body).toBe(200);
    }
    client.close();
    // The server itself, strace's child: strace, signalled, waits long for its tracees.
    process.kill(server, "SIGTERM");
    await app.exited;
    return syncCalls(fs.readFileSync(summary, "utf8"));
  };

  it("makes at least one fsync per saved turn with PGLITE_DURABILITY on, and none for the commits with it off", async () => {
    const SAVES = 200;
    const idle = await run(0, 5760, "on");
    const busy = await run(SAVES, 5761, "on");
    const off = await run(SAVES, 5762, "off");
    console.log(`fsync/fdatasync calls of the built server: start and stop ${idle}; with ${SAVES} saves ${busy} (${((busy - idle) / SAVES).toFixed(2)} per save); PGLITE_DURABILITY=off with ${SAVES} saves ${off}`);
    expect(busy - idle).toBeGreaterThanOrEqual(SAVES);
    // Off: none of the commits is flushed; the one call left is the DATA_DIR lock file's own.
    expect(off).toBeLessThanOrEqual(1);
  });
});
