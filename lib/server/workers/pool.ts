import "server-only";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Transferable, Worker } from "node:worker_threads";

/**
 * A small pool of worker threads with a bounded queue, for synchronous CPU work that must not hold the request
 * thread and must be stoppable (the PDF reader, lib/server/pdf/pool.ts; a page's extraction,
 * lib/server/read-page/extract-pool.ts). Only terminating its thread stops synchronous JavaScript, so a job past
 * its time limit costs its worker. A worker is kept warm between jobs (loading the modules is the slow part), is
 * unref'd so it never keeps a process alive, and exits after `idleMs` without work, giving its memory back.
 *
 * Bounds: `size` workers run at once; a job's time limit runs from when a worker picks it up, so a job queued
 * behind slow ones is not failed for their slowness; at most `queueMax` jobs wait, each at most `waitFactor` times
 * its time limit, and beyond either the job fails with `errors.busy()`.
 *
 * Protocol with a worker: it receives `{ id, job }` and answers `{ id, ok: true, result }` or `{ id, ok: false, ... }`
 * (a failure the pool turns into an error with `errors.failed`), one job at a time.
 */

/** What a worker answers for job `id`. */
export type WorkerReply<Result, Failure> = { id: number; ok: true; result: Result } | ({ id: number; ok: false } & Failure);

/** A pool's shape and the errors it settles jobs with. */
export interface WorkerPoolOptions<Failure> {
  /** Start one worker (its module's `new Worker(new URL(...))`, which Next's build follows). */
  start: () => Worker;
  /** Workers at once. */
  size: number;
  /** Jobs that may wait for a worker; more fail at once with `errors.busy()`. */
  queueMax: number;
  /** A queued job waits at most this many times its time limit for a worker. */
  waitFactor: number;
  /** Workers leave after this long without a job, milliseconds. */
  idleMs: number;
  /** Replace a worker after a failed job (it may hold memory its collector has no reason to give back yet). */
  retireAfterFailure: boolean;
  errors: {
    /** The queue is full, or a job waited too long for a worker. */
    busy: () => Error;
    /** The job ran past its time limit (its worker is terminated). */
    timeout: () => Error;
    /** The worker died (its heap limit, a crash) or the pool was closed. */
    died: () => Error;
    /** The worker answered a failure. */
    failed: (failure: Failure) => Error;
  };
}

interface Pending<Job, Result> {
  id: number;
  job: Job;
  transfer?: readonly Transferable[];
  timeoutMs: number;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
  /** The wait limit while queued, then the deadline once a worker has the job. */
  timer: ReturnType<typeof setTimeout>;
  slot?: Slot<Job, Result>;
}

interface Slot<Job, Result> {
  worker: Worker;
  running?: Pending<Job, Result>;
  idleTimer?: ReturnType<typeof setTimeout>;
}

/** A pool of worker threads; see the module comment for its bounds. */
export class WorkerPool<Job, Result, Failure = object> {
  private readonly slots = new Set<Slot<Job, Result>>();
  private readonly queue: Pending<Job, Result>[] = [];
  private nextId = 1;

  constructor(private readonly options: WorkerPoolOptions<Failure>) {}

  /**
   * Run one job within `timeoutMs` (from when a worker picks it up).
   * @param transfer buffers moved to the worker rather than copied (they are unusable here afterwards)
   * @throws options.errors: busy (queue full, waited WAIT_FACTOR × timeoutMs), timeout, died, failed; `signal`'s
   *   reason when it aborts before the job is done (a running job still runs to its end or deadline)
   */
  run(job: Job, timeoutMs: number, signal?: AbortSignal, transfer?: readonly Transferable[]): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const idle = [...this.slots].some((s) => !s.running) || this.slots.size < this.options.size;
      if (!idle && this.queue.length >= this.options.queueMax) return reject(this.options.errors.busy());
      const pending: Pending<Job, Result> = {
        id: this.nextId++,
        job,
        transfer,
        timeoutMs,
        resolve,
        reject,
        timer: setTimeout(() => this.giveUpWaiting(pending), this.options.waitFactor * timeoutMs),
      };
      signal?.addEventListener(
        "abort",
        () => {
          const queued = this.queue.indexOf(pending);
          if (queued >= 0) this.queue.splice(queued, 1);
          this.settle(pending, signal.reason);
        },
        { once: true },
      );
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /** Jobs waiting for a worker now. */
  get queued(): number {
    return this.queue.length;
  }

  /** Workers alive now (0 when idle long enough). */
  get workers(): number {
    return this.slots.size;
  }

  /** Terminate every worker (tests, shutdown); queued and running jobs fail with `errors.died()`. */
  async close(): Promise<void> {
    for (const p of this.queue.splice(0)) this.settle(p, this.options.errors.died());
    await Promise.all(
      [...this.slots].map((slot) => {
        if (slot.running) this.settle(slot.running, this.options.errors.died());
        return this.retire(slot);
      }),
    );
  }

  private dispatch(): void {
    while (this.queue.length) {
      const slot = [...this.slots].find((s) => !s.running) ?? (this.slots.size < this.options.size ? this.spawn() : undefined);
      if (!slot) return;
      const pending = this.queue.shift()!;
      clearTimeout(slot.idleTimer);
      // The deadline starts now, when a worker has the job.
      clearTimeout(pending.timer);
      pending.timer = setTimeout(() => this.expire(pending), pending.timeoutMs);
      slot.running = pending;
      pending.slot = slot;
      slot.worker.postMessage({ id: pending.id, job: pending.job }, pending.transfer);
      pending.transfer = undefined;
    }
  }

  private spawn(): Slot<Job, Result> {
    const worker = this.options.start();
    // Never keep a process alive for an idle worker; a pending job holds its own (ref'd) deadline timer.
    worker.unref();
    // Drain and drop anything the worker prints: it may quote a user's document or page.
    worker.stdout?.resume();
    worker.stderr?.resume();
    const slot: Slot<Job, Result> = { worker };
    this.slots.add(slot);
    worker.on("message", (reply: WorkerReply<Result, Failure>) => {
      const pending = slot.running;
      if (!pending || pending.id !== reply.id) return;
      slot.running = undefined;
      if (reply.ok) this.settle(pending, undefined, reply.result);
      else this.settle(pending, this.options.errors.failed(reply));
      if (!reply.ok && this.options.retireAfterFailure) {
        void this.retire(slot);
        this.dispatch();
        return;
      }
      slot.idleTimer = setTimeout(() => void this.retire(slot), this.options.idleMs);
      slot.idleTimer.unref();
      this.dispatch();
    });
    const onDeath = () => {
      if (!this.slots.delete(slot)) return;
      clearTimeout(slot.idleTimer);
      // Out of memory (its resourceLimits), a crash, or terminate(): the running job fails.
      if (slot.running) this.settle(slot.running, this.options.errors.died());
      slot.running = undefined;
      this.dispatch();
    };
    worker.on("error", onDeath);
    worker.on("exit", onDeath);
    return slot;
  }

  private giveUpWaiting(pending: Pending<Job, Result>): void {
    const queued = this.queue.indexOf(pending);
    if (queued < 0) return;
    this.queue.splice(queued, 1);
    this.settle(pending, this.options.errors.busy());
  }

  private expire(pending: Pending<Job, Result>): void {
    const slot = pending.slot;
    this.settle(pending, this.options.errors.timeout());
    if (slot && slot.running === pending) {
      slot.running = undefined;
      void this.retire(slot);
      this.dispatch();
    }
  }

  private async retire(slot: Slot<Job, Result>): Promise<void> {
    this.slots.delete(slot);
    clearTimeout(slot.idleTimer);
    await slot.worker.terminate();
  }

  /** Settles once: later outcomes of the same job (an abort after the answer, a late reply) are ignored. */
  private settle(pending: Pending<Job, Result>, error?: Error, result?: Result): void {
    clearTimeout(pending.timer);
    const { resolve, reject } = pending;
    pending.resolve = () => {};
    pending.reject = () => {};
    if (error) reject(error);
    else resolve(result!);
  }
}

const built = new Map<string, string>();

/**
 * A worker's TypeScript source and the Hush modules it imports bundled into one ES module under
 * node_modules/.cache/hush/, once per process, for running outside Next (Vitest, tsx scripts); `external`
 * packages stay imports resolved from node_modules. esbuild is a development dependency (through tsx and Vitest),
 * loaded past bundlers' sight: this is never reached in Next's build, which bundles the worker itself. Running the
 * TypeScript through tsx instead would have tsx transform large packages (pdf.js's 3 MB) inside the worker.
 * @param entry the worker's source file, absolute
 * @returns the bundle's path
 */
export function bundledWorker(entry: string, external: readonly string[]): string {
  const done = built.get(entry);
  if (done) return done;
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
  const load = process.getBuiltinModule("node:module").createRequire(import.meta.url);
  const esbuild = load("esbuild") as { buildSync(options: Record<string, unknown>): unknown };
  const name = path.basename(entry).replace(/\.ts$/, "");
  const result = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: [...external],
    tsconfig: path.join(root, "tsconfig.json"),
    write: false,
    outfile: `${name}.mjs`,
    logLevel: "silent",
  }) as { outputFiles: { contents: Uint8Array }[] };
  const code = result.outputFiles[0]!.contents;
  // Named by its content: processes building the same source share one file, written whole or not at all.
  const dir = path.join(root, "node_modules/.cache/hush");
  const out = path.join(dir, `${name}.${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`);
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${out}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, out);
  }
  built.set(entry, out);
  return out;
}
