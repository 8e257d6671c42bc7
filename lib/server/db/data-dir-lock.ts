import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AppError, isAppError } from "@/lib/shared/errors";

/**
 * One process per embedded data folder (docs/deploy.md "One process per data folder"): an O_EXCL lock file, taken
 * over only once its holder is proven gone.
 */

export interface LockHolder {
  pid: number;
  startTicks: number | null;
  bootId: string | null;
  hostname: string;
  /** Without its arguments (an e-mail given to `npm run plan` stays out of the file). */
  command: string;
  nonce: string;
  control?: string;
}

export interface DataDirInUse {
  dataDir: string;
  holder: LockHolder;
  lockFile: string;
}

/** AppError "unavailable:data_dir_in_use" (503). */
function dataDirInUse(dataDir: string, holder: LockHolder, lockFile: string): AppError {
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

export function dataDirHolder(error: unknown): LockHolder | null {
  return isAppError(error, "unavailable:data_dir_in_use") ? (error.cause as DataDirInUse).holder : null;
}

export interface DataDirLock {
  readonly file: string;
  setControl(socketPath: string): void;
  release(): void;
}

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

function startTicksOf(pid: number): number | null {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return null;
  // Field 2 (comm) may itself hold spaces or parentheses: split after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[19]);
  return Number.isFinite(ticks) ? ticks : null;
}

const hasProc = () => fs.existsSync("/proc/self/stat");

function commandOf(argv: string[]): string {
  const script = argv[1] ? path.relative(process.cwd(), argv[1]) || argv[1] : "";
  return [path.basename(argv[0] ?? "node"), script].filter(Boolean).join(" ");
}

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

/** Never true for another host. */
export function holderIsGone(holder: LockHolder): boolean {
  if (holder.hostname !== os.hostname()) return false;
  const bootId = readText("/proc/sys/kernel/random/boot_id");
  if (holder.bootId && bootId && holder.bootId !== bootId) return true;
  if (holder.pid === process.pid && holder.startTicks === startTicksOf(process.pid)) return false;
  if (hasProc() && holder.startTicks !== null) return startTicksOf(holder.pid) !== holder.startTicks;
  return !alive(holder.pid);
}

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

/** @throws AppError unavailable:data_dir_in_use when a live holder, or one not provably gone, has it. */
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
      // Not yet written by its holder, or torn: wait once.
      const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age < 2_000) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
        continue;
      }
      current = { pid: 0, startTicks: null, bootId: null, hostname: os.hostname(), command: "unknown", nonce: "" };
    } else if (!holderIsGone(current)) {
      throw dataDirInUse(dataDir, current, file);
    }
    // Check that what moved is the lock judged stale, not one taken meanwhile.
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
    const text = readText(file);
    try {
      if (text && (JSON.parse(text) as LockHolder).nonce === holder.nonce) fs.rmSync(file, { force: true });
    } catch {
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
