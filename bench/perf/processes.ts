/**
 * Child processes of bench/perf/run.ts (the app instances, the floor app, the bare proxy, the fake model):
 * started from the repository root (the floor app from its own folder), all stopped together at the
 * end, and their CPU time read from /proc.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const children: ChildProcess[] = [];

/** Start `cmd` in `cwd` (default: the repository root) with `env` over this process's environment. */
export function start(name: string, cmd: string, args: string[], env: Record<string, string> = {}, cwd = ROOT): ChildProcess {
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  child.on("exit", (code, signal) => {
    if (code && !shuttingDown) console.error(`[${name}] exited with ${code ?? signal}\n${err}`);
  });
  children.push(child);
  return child;
}

let shuttingDown = false;
export async function stopAll() {
  shuttingDown = true;
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once("exit", () => resolve());
          c.kill("SIGTERM");
          setTimeout(() => c.kill("SIGKILL"), 10_000).unref();
        }),
    ),
  );
}

export async function waitFor(url: string, ms = 120_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${url}`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** USER_HZ on Linux: /proc's CPU times are in these ticks per second. */
const TICKS_PER_SECOND = 100;

/** User plus system CPU time (ms) of process `pid` itself, from /proc/<pid>/stat. @throws when it is gone */
function processCpuMs(pid: number | string): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU time (ms) of a process and all its descendants, from /proc (Linux). */
export function treeCpuMs(pid: number): number {
  let total = 0;
  const visit = (p: number) => {
    try {
      total += processCpuMs(p);
      for (const t of fs.readdirSync(`/proc/${p}/task`)) {
        const kids = fs.readFileSync(`/proc/${p}/task/${t}/children`, "utf8").trim();
        for (const k of kids ? kids.split(" ") : []) visit(Number(k));
      }
    } catch {
      // gone
    }
  };
  visit(pid);
  return total;
}

/**
 * Busy CPU time (ms) of the whole machine since boot, from /proc/stat's first line: user, nice, system,
 * irq and softirq (guest time is counted inside user; idle, iowait and steal are not busy here).
 */
export function machineBusyMs(): number {
  const fields = fs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq] = fields;
  return ((user! + nice! + system! + irq! + softirq!) * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU time (ms) of each process on the machine whose name (/proc/<pid>/comm) is `comm`, by pid, e.g.
 * "postgres": the server and all its backends, whatever database they serve. Compare two readings with
 * `cpuSince`.
 */
export function commCpuMs(comm: string): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const p of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (fs.readFileSync(`/proc/${p}/comm`, "utf8").trim() === comm) byPid.set(p, processCpuMs(p));
    } catch {
      // gone
    }
  }
  return byPid;
}

/**
 * CPU time (ms) spent between two `commCpuMs` readings by the processes alive at the second: a process that
 * exited in between (a backend closed, an autovacuum worker) is left out rather than counted negative.
 */
export function cpuSince(before: Map<string, number>, after: Map<string, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
