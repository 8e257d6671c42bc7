import "server-only";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type ResourceLimits } from "node:worker_threads";
import { PdfError, type PdfErrorCode } from "@/lib/shared/pdf/errors";
import type { PdfLimits, PdfText } from "@/lib/shared/pdf/extract-text";

/**
 * The server's PDF worker threads (./pdf.worker.ts), so a PDF's reading can really be stopped and never
 * holds the request thread. pdf.js parses on the thread that calls it and parts of it are synchronous
 * (decompression, content streams): only terminating its thread stops it. A worker is kept warm between
 * jobs (pdf.js loads in about 100 ms; a cold parse is several times slower than a warm one), is unref'd so it
 * never keeps a process alive, and exits after IDLE_MS without work, giving its memory back.
 *
 * Bounds: POOL_SIZE workers read at once, so on the reference machine's 2 cores one core
 * always stays with the request thread and other users' turns are not slowed; each worker's heap is capped
 * (WORKER_LIMITS: past it the worker dies and the PDF fails as unreadable), and the buffers pdf.js's decoders
 * grow outside that heap are capped by PDF_MAX_INFLATED_BYTES (lib/shared/pdf/inflate-guard.ts). A job's
 * time limit (PDF_PARSE_TIMEOUT_MS) runs from when a worker picks it up, so a PDF queued behind slow ones is
 * not failed for their slowness; at most QUEUE_MAX jobs wait, each at most WAIT_FACTOR times that long, and
 * beyond either the job fails with PdfPoolBusy.
 */

/** One PDF at a time: its worker takes one core of two, and at most one worker's memory is in use. */
const POOL_SIZE = 1;
/** Jobs that may wait for a worker; more fail at once with PdfPoolBusy. */
const QUEUE_MAX = 8;
/** A queued job waits at most this many times its time limit for a worker (then PdfPoolBusy). */
const WAIT_FACTOR = 2;
/** Workers leave after this long without a job. */
const IDLE_MS = 30_000;
/**
 * The worker's V8 heap: a 100-page text PDF reads in well under it (pdf.js keeps one page's objects at a
 * time); a hostile file that would need more kills the worker instead of growing the server. The young
 * generation is 8 MB: 16 kept ~10 MB more resident between reads (bench/pdf-bomb.ts, docs/issues.md #39).
 */
const WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 };

/** The queue is full, or a job waited longer than its time limit for a worker. */
export class PdfPoolBusy extends Error {
  constructor() {
    super("The PDF workers are busy.");
    this.name = "PdfPoolBusy";
  }
}

type Reply = { id: number; ok: true; result: PdfText } | { id: number; ok: false; code: PdfErrorCode; maxBytes?: number };

interface Pending {
  id: number;
  base64: string;
  limits: PdfLimits;
  resolve: (result: PdfText) => void;
  reject: (error: Error) => void;
  /** The wait limit while queued, then the parse deadline once a worker has the job. */
  timer: ReturnType<typeof setTimeout>;
  slot?: Slot;
}

interface Slot {
  worker: Worker;
  running?: Pending;
  idleTimer?: ReturnType<typeof setTimeout>;
}

/**
 * Start a PDF worker. Next's build bundles ./pdf.worker.ts from this very `new Worker(new URL(...))` (Turbopack
 * compiles it into a chunk of its own, packages left to node_modules: next.config.ts serverExternalPackages).
 * Outside Next (Vitest, tsx scripts) the source is bundled the same way by esbuild (see sourceBuild).
 */
function startWorker(): Worker {
  const options = { resourceLimits: WORKER_LIMITS, stdout: true, stderr: true } as const;
  if (process.env.NEXT_RUNTIME) return new Worker(new URL("./pdf.worker.ts", import.meta.url), options);
  return new Worker(sourceBuild(), options);
}

let built: string | undefined;

/**
 * ./pdf.worker.ts and the Hush modules it imports bundled into one ES module under node_modules/.cache/hush/
 * (so that pdf-parse and pdfjs-dist, left external, resolve from node_modules), once per process. esbuild is
 * a development dependency (through tsx and Vitest), loaded past bundlers' sight, as pdf.js loads its own
 * optional modules: this is never reached in Next's build. Running the TypeScript through tsx instead would
 * have tsx transform pdf.js's 3 MB in the worker, which needs more than the worker's heap limit.
 */
function sourceBuild(): string {
  if (built) return built;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = path.resolve(here, "../../..");
  const load = process.getBuiltinModule("node:module").createRequire(import.meta.url);
  const esbuild = load("esbuild") as { buildSync(options: Record<string, unknown>): unknown };
  const result = esbuild.buildSync({
    entryPoints: [path.join(here, "pdf.worker.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["pdf-parse", "pdfjs-dist", "pdfjs-dist/*"],
    tsconfig: path.join(root, "tsconfig.json"),
    write: false,
    outfile: "pdf.worker.mjs",
    logLevel: "silent",
  }) as { outputFiles: { contents: Uint8Array }[] };
  const code = result.outputFiles[0]!.contents;
  // Named by its content: processes building the same source share one file, written whole or not at all.
  const dir = path.join(root, "node_modules/.cache/hush");
  const out = path.join(dir, `pdf.worker.${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`);
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${out}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, out);
  }
  built = out;
  return out;
}

/** A small pool of PDF worker threads with a bounded queue; see the module comment for its bounds. */
export class PdfWorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(private readonly size = POOL_SIZE) {}

  /**
   * Read one PDF (the base64 payload of its data URL, decoded in the worker) within `limits`.
   * @throws PdfError from lib/shared/pdf/extract-text.ts, "timeout" past limits.timeoutMs, "unreadable" when the
   *   worker died (its heap limit, a crash); PdfPoolBusy when the queue is full or the wait (WAIT_FACTOR times
   *   limits.timeoutMs) ran out;
   *   `signal`'s reason when it aborts before the job is done (a running job still runs to its end or deadline).
   */
  read(base64: string, limits: PdfLimits, signal?: AbortSignal): Promise<PdfText> {
    return new Promise<PdfText>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const idle = [...this.slots].some((s) => !s.running) || this.slots.size < this.size;
      if (!idle && this.queue.length >= QUEUE_MAX) return reject(new PdfPoolBusy());
      const pending: Pending = {
        id: this.nextId++,
        base64,
        limits,
        resolve,
        reject,
        timer: setTimeout(() => this.giveUpWaiting(pending), WAIT_FACTOR * limits.timeoutMs),
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

  /** Terminate every worker (tests, shutdown); queued and running jobs fail as unreadable. */
  async close(): Promise<void> {
    for (const p of this.queue.splice(0)) this.settle(p, new PdfError("unreadable"));
    await Promise.all(
      [...this.slots].map((slot) => {
        if (slot.running) this.settle(slot.running, new PdfError("unreadable"));
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
      pending.timer = setTimeout(() => this.expire(pending), pending.limits.timeoutMs);
      slot.running = pending;
      pending.slot = slot;
      const { maxBytes, maxPages, maxChars, maxInflatedBytes } = pending.limits;
      slot.worker.postMessage({ id: pending.id, base64: pending.base64, limits: { maxBytes, maxPages, maxChars, maxInflatedBytes } });
    }
  }

  private spawn(): Slot {
    const worker = startWorker();
    // Never keep a process alive for an idle worker; a pending job holds its own (ref'd) deadline timer.
    worker.unref();
    // Drain and drop anything the worker prints: it may quote document content.
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker };
    this.slots.add(slot);
    worker.on("message", (reply: Reply) => {
      const pending = slot.running;
      if (!pending || pending.id !== reply.id) return;
      slot.running = undefined;
      if (reply.ok) this.settle(pending, undefined, reply.result);
      else this.settle(pending, new PdfError(reply.code, { maxBytes: reply.maxBytes }));
      // A failed read (a bomb, a broken file) may leave buffers outside the heap that its garbage collector has
      // no reason to collect yet: a fresh worker for the next one costs ~100 ms and none of that memory.
      if (!reply.ok) {
        void this.retire(slot);
        this.dispatch();
        return;
      }
      slot.idleTimer = setTimeout(() => void this.retire(slot), IDLE_MS);
      slot.idleTimer.unref();
      this.dispatch();
    });
    const onDeath = () => {
      if (!this.slots.delete(slot)) return;
      clearTimeout(slot.idleTimer);
      // Out of memory (its resourceLimits), a crash in pdf.js, or terminate(): the running job fails.
      if (slot.running) this.settle(slot.running, new PdfError("unreadable"));
      slot.running = undefined;
      this.dispatch();
    };
    worker.on("error", onDeath);
    worker.on("exit", onDeath);
    return slot;
  }

  private giveUpWaiting(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued < 0) return;
    this.queue.splice(queued, 1);
    this.settle(pending, new PdfPoolBusy());
  }

  private expire(pending: Pending): void {
    const slot = pending.slot;
    this.settle(pending, new PdfError("timeout"));
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

  /** Settles once: later outcomes of the same job (an abort after the answer, a late reply) are ignored. */
  private settle(pending: Pending, error?: Error, result?: PdfText): void {
    clearTimeout(pending.timer);
    const { resolve, reject } = pending;
    pending.resolve = () => {};
    pending.reject = () => {};
    if (error) reject(error);
    else resolve(result!);
  }
}
