/**
 * A small pool of PDF worker threads (see worker-source.ts), so that a parse can really be stopped.
 *
 * Why threads: pdf.js runs its parser on the calling thread in Node (a "fake worker"), and parts of
 * it are synchronous (decompression, content-stream parsing), so a timer on the main thread cannot
 * fire while a hostile PDF keeps it busy, and `destroy()` cannot interrupt it. A worker thread can be
 * terminated at any instruction. Workers are kept warm between jobs (pdf.js loads in ~100 ms and a
 * cold parse is several times slower than a warm one), are unref'd so they never keep a process
 * alive, and exit after IDLE_MS without work.
 *
 * Time: a job's parse deadline (timeoutMs) runs from the moment a worker picks it up, so a PDF queued
 * behind slow ones is not failed for their slowness. The queue is bounded instead: at most QUEUE_MAX
 * jobs wait, each at most twice its timeoutMs; beyond either the job fails at once with "busy" (the route answers
 * 503 with Retry-After), so a burst of uploads cannot pile up.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { PDF_WORKER_SOURCE } from "./worker-source";

export interface PdfJob {
  bytes: Uint8Array;
  maxPages: number;
  maxChars: number;
  /** Decompression budget for the whole file, bytes (see worker-source.ts). */
  maxInflatedBytes: number;
}

export interface PdfJobResult {
  text: string;
  pages: number;
  totalPages: number;
  truncated: boolean;
}

/** Why a job failed: pdf-parse's exception name, or one of the pool's own outcomes. */
export class PdfJobFailure extends Error {
  constructor(readonly reason: string) {
    super(`PDF job failed: ${reason}`);
    this.name = "PdfJobFailure";
  }
}

type WorkerReply = { id: number; ok: true } & PdfJobResult | { id: number; ok: false; error: string };

interface Pending {
  id: number;
  job: PdfJob;
  resolve: (r: PdfJobResult) => void;
  reject: (e: Error) => void;
  timeoutMs: number;
  /** The queue-wait limit while queued, then the parse deadline once a worker has the job. */
  timer: ReturnType<typeof setTimeout>;
  slot?: Slot;
}

interface Slot {
  worker: Worker;
  running?: Pending;
  idleTimer?: ReturnType<typeof setTimeout>;
}

/** Workers leave after this long without a job. */
const IDLE_MS = 30_000;
/**
 * Heap cap per worker: a runaway document fails as unreadable instead of exhausting the server. The
 * inflation budget (worker-source.ts) bounds decoded stream buffers, which live outside this heap.
 */
const WORKER_HEAP_MB = 384;
/** Jobs that may wait for a worker; more get "busy" at once. */
export const QUEUE_MAX = 8;
/** Two cores on the reference machine: at most two PDFs parse at once, the rest queue. */
const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism()));

export class PdfWorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(private readonly size = POOL_SIZE) {}

  /**
   * Parse one PDF in a worker. The caller's bytes are copied, never detached.
   * @param timeoutMs the parse time limit, from when a worker picks the job up; twice it is the longest wait
   * @throws PdfJobFailure with reason "timeout", "busy" (queue full or waited timeoutMs), "crashed",
   *   "LoadError", "InflateLimit" or pdf-parse's exception name
   */
  run(job: PdfJob, timeoutMs: number): Promise<PdfJobResult> {
    return new Promise<PdfJobResult>((resolve, reject) => {
      const idle = [...this.slots].some((s) => !s.running) || this.slots.size < this.size;
      if (!idle && this.queue.length >= QUEUE_MAX) {
        reject(new PdfJobFailure("busy"));
        return;
      }
      const pending: Pending = {
        id: this.nextId++,
        job,
        resolve,
        reject,
        timeoutMs,
        timer: setTimeout(() => this.giveUpWaiting(pending), 2 * timeoutMs),
      };
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /** Jobs waiting for a worker now (for tests and the busy answer). */
  get queued(): number {
    return this.queue.length;
  }

  /** Terminate every worker (tests and scripts); queued and running jobs fail with "crashed". */
  async close(): Promise<void> {
    for (const p of this.queue.splice(0)) this.settle(p, new PdfJobFailure("crashed"));
    await Promise.all(
      [...this.slots].map((slot) => {
        if (slot.running) this.settle(slot.running, new PdfJobFailure("crashed"));
        return this.retire(slot);
      }),
    );
  }

  private dispatch(): void {
    while (this.queue.length) {
      const slot = [...this.slots].find((s) => !s.running) ?? (this.slots.size < this.size ? this.spawn() : undefined);
      if (!slot) return;
      const pending = this.queue.shift()!;
      clearTimeout(slot.idleTimer);
      // The parse deadline starts now, when a worker has the job.
      clearTimeout(pending.timer);
      pending.timer = setTimeout(() => this.expire(pending), pending.timeoutMs);
      slot.running = pending;
      pending.slot = slot;
      const copy = new Uint8Array(pending.job.bytes.byteLength);
      copy.set(pending.job.bytes);
      slot.worker.postMessage(
        {
          id: pending.id,
          bytes: copy,
          maxPages: pending.job.maxPages,
          maxChars: pending.job.maxChars,
          maxInflatedBytes: pending.job.maxInflatedBytes,
        },
        [copy.buffer],
      );
    }
  }

  private spawn(): Slot {
    const worker = new Worker(PDF_WORKER_SOURCE, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      stdout: true,
      stderr: true,
    });
    // Never keep a process alive for an idle worker; pending jobs hold their own (ref'd) deadline timer.
    worker.unref();
    // Drain and drop anything the worker prints: it may quote document content.
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker };
    this.slots.add(slot);
    worker.on("message", (reply: WorkerReply) => {
      const pending = slot.running;
      if (!pending || pending.id !== reply.id) return;
      slot.running = undefined;
      if (reply.ok) {
        this.settle(pending, undefined, {
          text: reply.text,
          pages: reply.pages,
          totalPages: reply.totalPages,
          truncated: reply.truncated,
        });
      } else {
        this.settle(pending, new PdfJobFailure(reply.error));
      }
      slot.idleTimer = setTimeout(() => void this.retire(slot), IDLE_MS);
      slot.idleTimer.unref();
      this.dispatch();
    });
    const onDeath = () => {
      if (!this.slots.delete(slot)) return;
      clearTimeout(slot.idleTimer);
      if (slot.running) this.settle(slot.running, new PdfJobFailure("crashed"));
      slot.running = undefined;
      this.dispatch();
    };
    // Out of memory, an uncaught error in pdf.js, or terminate(): the running job fails, the slot goes.
    worker.on("error", onDeath);
    worker.on("exit", onDeath);
    return slot;
  }

  private giveUpWaiting(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued < 0) return;
    this.queue.splice(queued, 1);
    this.settle(pending, new PdfJobFailure("busy"));
  }

  private expire(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) this.queue.splice(queued, 1);
    const slot = pending.slot;
    this.settle(pending, new PdfJobFailure("timeout"));
    if (slot && slot.running === pending) {
      slot.running = undefined;
      void this.retire(slot);
      this.dispatch();
    }
  }

  private async retire(slot: Slot): Promise<void> {
    this.slots.delete(slot);
    clearTimeout(slot.idleTimer);
    await slot.worker.terminate();
  }

  private settle(pending: Pending, error?: Error, result?: PdfJobResult): void {
    clearTimeout(pending.timer);
    if (error) pending.reject(error);
    else pending.resolve(result!);
  }
}
