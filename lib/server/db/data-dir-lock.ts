import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AppError, isAppError } from "@/lib/shared/errors";

/**
 * One process per embedded data folder (docs/deploy.md "One process per data folder"): PGlite is a
 * single PostgreSQL backend, and two processes on one folder corrupt it. Every program that opens DATA_DIR
 * (the server, `npm run plan`, migrations, db:backup, db:restore) takes this lock before PGlite opens it.
 *
 * The lock is a file beside the PGlite folder (DATA_DIR/pglite.lock), created exclusively (O_EXCL) and holding its holder's
 * identity. A lock whose holder was killed stays behind; it is taken over only once that holder is proven
 * gone: same host and boot, and no process with its pid and start time (Linux /proc; elsewhere the pid alone).
 * A holder on another host (a container sharing the volume) is never proven gone, so never taken over.
 */

/** What the lock file holds (JSON). */
export interface LockHolder {
  pid: number;
  /** Start time of the process in clock ticks since boot (/proc/<pid>/stat field 22), null off Linux. */
  startTicks: number | null;
  /** /proc/sys/kernel/random/boot_id, null off Linux. */
  bootId: string | null;
  hostname: string;
  /** The program, without its arguments (an e-mail given to `npm run plan` stays out of the file). */
  command: string;
  /** A per-acquisition nonce: proves a lock read back is this acquisition's. */
  nonce: string;
  /** The holder's local control socket (backups while it runs), when it serves one. */
  control?: string;
}

/** What an "unavailable:data_dir_in_use" refusal carries as its `cause`. */
export interface DataDirInUse {
  dataDir: string;
  holder: LockHolder;
  lockFile: string;
}

/**
 * A second opener's refusal: the folder is in use by a live (or unprovably dead) process.
 * @returns AppError "unavailable:data_dir_in_use" (503), `cause` a DataDirInUse (read it with dataDirHolder).
 */
export function dataDirInUse(dataDir: string, holder: LockHolder, lockFile: string): AppError {
  const where = holder.hostname === os.hostname() ? "" : ` on host ${holder.hostname}`;
  return new AppError(
    "unavailable:data_dir_in_use",
    `DATA_DIR ${dataDir} is in use by process ${holder.pid}${where} (${holder.command}). ` +
      `Only one process may open it: stop that process, then run this again ` +
      `(npm run db:backup needs no stop: it asks the running server). ` +
      `If you are sure no such process is running, delete ${lockFile}.`,
    { cause: { dataDir, holder, lockFile } satisfies DataDirInUse },
  );
}

/** The holder named by a `dataDirInUse` refusal; null for any other error. */
export function dataDirHolder(error: unknown): LockHolder | null {
  return isAppError(error, "unavailable:data_dir_in_use") ? (error.cause as DataDirInUse).holder : null;
}

/** A held lock: `control` records the holder's control socket; `release` is idempotent. */
export interface DataDirLock {
  readonly file: string;
  setControl(socketPath: string): void;
  release(): void;
}

/** The lock file of the PGlite folder `pgliteDir` (DATA_DIR/pglite → DATA_DIR/pglite.lock). */
export function lockFileOf(pgliteDir: string): string {
  return `${path.resolve(pgliteDir)}.lock`;
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
}

/** Start time of `pid` in clock ticks since boot, or null (no such process, or no /proc). */
function startTicksOf(pid: number): number | null {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return null;
  // Field 2 (comm) is in parentheses and may itself hold spaces or parentheses: split after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[19]);
  return Number.isFinite(ticks) ? ticks : null;
}

const hasProc = () => fs.existsSync("/proc/self/stat");

function commandOf(argv: string[]): string {
  const script = argv[1] ? path.relative(process.cwd(), argv[1]) || argv[1] : "";
  return [path.basename(argv[0] ?? "node"), script].filter(Boolean).join(" ");
}

/** This process's identity, as written in a lock it takes. */
export function currentHolder(): LockHolder {
  return {
    pid: process.pid,
    startTicks: startTicksOf(process.pid),
    bootId: readText("/proc/sys/kernel/random/boot_id"),
    hostname: os.hostname(),
    command: commandOf(process.argv),
    nonce: randomBytes(12).toString("hex"),
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * True only when `holder` is proven gone: same host, and (Linux) another boot, or no process with its pid
 * and start time; off Linux, no process with its pid. Never true for another host.
 */
export function holderIsGone(holder: LockHolder): boolean {
  if (holder.hostname !== os.hostname()) return false;
  const bootId = readText("/proc/sys/kernel/random/boot_id");
  if (holder.bootId && bootId && holder.bootId !== bootId) return true;
  if (holder.pid === process.pid && holder.startTicks === startTicksOf(process.pid)) return false;
  if (hasProc() && holder.startTicks !== null) return startTicksOf(holder.pid) !== holder.startTicks;
  return !alive(holder.pid);
}

/** The current holder of the lock on the PGlite folder `pgliteDir`, if its file exists and reads. */
export function readLock(pgliteDir: string): LockHolder | null {
  const text = readText(lockFileOf(pgliteDir));
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as LockHolder;
    return typeof parsed.pid === "number" ? parsed : null;
  } catch {
    return null;
  }
}

function writeExclusive(file: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    fs.writeSync(fd, JSON.stringify(holder));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * Take the lock on the PGlite folder `pgliteDir` (DATA_DIR/pglite) for this process, taking over a lock
 * whose holder is proven gone. Released by `release()` and, best effort, when the process exits.
 * @throws AppError unavailable:data_dir_in_use (`dataDirInUse`, naming DATA_DIR, the parent) when a live holder, or one not provably gone, has it.
 */
export function acquireDataDirLock(pgliteDir: string): DataDirLock {
  const dataDir = path.dirname(path.resolve(pgliteDir));
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFileOf(pgliteDir);
  let holder = currentHolder();
  for (let attempt = 0; attempt < 5; attempt++) {
    if (writeExclusive(file, holder)) return heldLock(file, holder);
    const text = readText(file);
    let current: LockHolder | null = null;
    try {
      current = text ? (JSON.parse(text) as LockHolder) : null;
    } catch {
      current = null;
    }
    if (!current) {
      // Created but not yet written by its holder (a moment between open and write), or torn: wait once.
      const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age < 2_000) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
        continue;
      }
      current = { pid: 0, startTicks: null, bootId: null, hostname: os.hostname(), command: "unknown", nonce: "" };
    } else if (!holderIsGone(current)) {
      throw dataDirInUse(dataDir, current, file);
    }
    // Stale: move it aside, then check that what moved is the lock judged stale, not a newer one
    // that another process took meanwhile (put back if so).
    const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
    try {
      fs.renameSync(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    if (readText(aside) !== text) {
      try {
        fs.linkSync(aside, file);
      } finally {
        fs.rmSync(aside, { force: true });
      }
      continue;
    }
    fs.rmSync(aside, { force: true });
    holder = currentHolder();
  }
  const current = readLock(pgliteDir);
  if (current) throw dataDirInUse(dataDir, current, file);
  throw new Error(`Could not take the lock ${file}`);
}

function heldLock(file: string, holder: LockHolder): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    // Only this acquisition's file: never one another process took over after us.
    const text = readText(file);
    try {
      if (text && (JSON.parse(text) as LockHolder).nonce === holder.nonce) fs.rmSync(file, { force: true });
    } catch {
      // unreadable: not ours to remove
    }
  };
  process.on("exit", release);
  return {
    file,
    setControl(socketPath: string) {
      const updated = { ...holder, control: socketPath };
      const tmp = `${file}.${holder.nonce}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(updated), { mode: 0o600 });
      fs.renameSync(tmp, file);
      Object.assign(holder, updated);
    },
    release,
  };
}
