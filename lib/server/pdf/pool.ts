import "server-only";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type ResourceLimits } from "node:worker_threads";
import { PdfError, type PdfErrorCode } from "@/lib/shared/pdf/errors";
import type { PdfLimits, PdfText } from "@/lib/shared/pdf/extract-text";
import { bundledWorker, WorkerPool } from "@/lib/server/workers/pool";

/**
 * The server's PDF worker threads (./pdf.worker.ts, run by lib/server/workers/pool.ts), so a PDF's reading can
 * really be stopped and never holds the request thread. pdf.js parses on the thread that calls it and parts of it
 * are synchronous (decompression, content streams): only terminating its thread stops it. A worker is kept warm
 * between jobs (pdf.js loads in about 100 ms; a cold parse is several times slower than a warm one), is unref'd so
 * it never keeps a process alive, and exits after IDLE_MS without work, giving its memory back.
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

interface PdfJob {
  base64: string;
  limits: Omit<PdfLimits, "timeoutMs">;
}

interface PdfFailure {
  code: PdfErrorCode;
  maxBytes?: number;
}

/**
 * Start a PDF worker. Next's build bundles ./pdf.worker.ts from this very `new Worker(new URL(...))` (Turbopack
 * compiles it into a chunk of its own, packages left to node_modules: next.config.ts serverExternalPackages).
 * Outside Next (Vitest, tsx scripts) the source is bundled the same way by esbuild (bundledWorker), pdf-parse and
 * pdf.js left external.
 */
function startWorker(): Worker {
  const options = { resourceLimits: WORKER_LIMITS, stdout: true, stderr: true } as const;
  if (process.env.NEXT_RUNTIME) return new Worker(new URL("./pdf.worker.ts", import.meta.url), options);
  const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), "pdf.worker.ts");
  return new Worker(bundledWorker(entry, ["pdf-parse", "pdfjs-dist", "pdfjs-dist/*"]), options);
}

/** A small pool of PDF worker threads with a bounded queue; see the module comment for its bounds. */
export class PdfWorkerPool {
  private readonly pool: WorkerPool<PdfJob, PdfText, PdfFailure>;

  constructor(size = POOL_SIZE) {
    this.pool = new WorkerPool({
      start: startWorker,
      size,
      queueMax: QUEUE_MAX,
      waitFactor: WAIT_FACTOR,
      idleMs: IDLE_MS,
      // A failed read (a bomb, a broken file) may leave buffers outside the heap that its garbage collector has
      // no reason to collect yet: a fresh worker for the next one costs ~100 ms and none of that memory.
      retireAfterFailure: true,
      errors: {
        busy: () => new PdfPoolBusy(),
        timeout: () => new PdfError("timeout"),
        died: () => new PdfError("unreadable"),
        failed: ({ code, maxBytes }) => new PdfError(code, { maxBytes }),
      },
    });
  }

  /**
   * Read one PDF (the base64 payload of its data URL, decoded in the worker) within `limits`.
   * @throws PdfError from lib/shared/pdf/extract-text.ts, "timeout" past limits.timeoutMs, "unreadable" when the
   *   worker died (its heap limit, a crash); PdfPoolBusy when the queue is full or the wait (WAIT_FACTOR times
   *   limits.timeoutMs) ran out;
   *   `signal`'s reason when it aborts before the job is done (a running job still runs to its end or deadline).
   */
  read(base64: string, limits: PdfLimits, signal?: AbortSignal): Promise<PdfText> {
    const { maxBytes, maxPages, maxChars, maxInflatedBytes } = limits;
    return this.pool.run({ base64, limits: { maxBytes, maxPages, maxChars, maxInflatedBytes } }, limits.timeoutMs, signal);
  }

  /** Jobs waiting for a worker now. */
  get queued(): number {
    return this.pool.queued;
  }

  /** Workers alive now (0 when idle long enough). */
  get workers(): number {
    return this.pool.workers;
  }

  /** Terminate every worker (tests, shutdown); queued and running jobs fail as unreadable. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
