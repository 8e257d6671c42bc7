import "server-only";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type ResourceLimits } from "node:worker_threads";
import { getConfig } from "@/lib/server/config";
import { bundledWorker, WorkerPool } from "@/lib/server/workers/pool";
import { ReadPageError } from "./guard";

/**
 * The page extraction worker threads (./extract.worker.ts, run by lib/server/workers/pool.ts): an HTML page's
 * Readability, DOM and Markdown work happens off the request thread, and a page whose extraction runs past
 * READ_PAGE_EXTRACT_TIMEOUT_MS has its worker terminated. Bounds: POOL_SIZE extractions at once (one core of the
 * reference machine's two stays with the request thread), QUEUE_MAX waiting, each at most WAIT_FACTOR times its
 * time limit; each worker's heap capped by WORKER_LIMITS (past it the worker dies and the read fails).
 */

/** One extraction at a time, as the PDF pool (lib/server/pdf/pool.ts): a core of two and one DOM in memory. */
const POOL_SIZE = 1;
/** Reads that may wait for the worker: a turn reads at most 8 pages a model call, so two turns' worth. */
export const QUEUE_MAX = 16;
/** A queued read waits at most this many times its time limit for a worker. */
const WAIT_FACTOR = 2;
/** The worker leaves after this long without a page. */
const IDLE_MS = 30_000;
/**
 * A 2 MB article-like page (tests/helpers/article-page.ts) reads in well under this heap; a page that needs more
 * (hundreds of thousands of elements) fails instead of growing the server. The cost of a small heap is CPU: V8
 * collects a small heap more often (its growing factor rises with the limit); memory was chosen over it (README).
 */
const WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 4, stackSizeMb: 4 };

interface ExtractJob {
  bytes: Uint8Array;
  contentType: string;
  maxChars: number;
}

/** An HTML page's title and Markdown, before whitespace is tidied and the text cut (./extract.ts). */
export interface HtmlText {
  title: string;
  text: string;
}

/**
 * Start an extraction worker. Next's build bundles ./extract.worker.ts, and the packages it imports, from this very
 * `new Worker(new URL(...))`; outside Next (Vitest, tsx scripts) esbuild bundles it (bundledWorker).
 */
function startWorker(): Worker {
  const options = { resourceLimits: WORKER_LIMITS, stdout: true, stderr: true } as const;
  if (process.env.NEXT_RUNTIME) return new Worker(new URL("./extract.worker.ts", import.meta.url), options);
  const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), "extract.worker.ts");
  return new Worker(bundledWorker(entry, ["@mozilla/readability", "linkedom", "turndown"]), options);
}

/**
 * A pool of extraction workers.
 * @param size workers at once (default POOL_SIZE)
 * @throws from its `extract`: ReadPageError "timeout" past the time limit or when the queue is full or waited
 *   too long, "unsupported" when the worker failed or died
 */
export function extractPool(size = POOL_SIZE): WorkerPool<ExtractJob, HtmlText> {
  return new WorkerPool<ExtractJob, HtmlText>({
    start: startWorker,
    size,
    queueMax: QUEUE_MAX,
    waitFactor: WAIT_FACTOR,
    idleMs: IDLE_MS,
    // A page that failed (its heap limit) may have left a large DOM behind: a fresh worker for the next.
    retireAfterFailure: true,
    errors: {
      busy: () => new ReadPageError("timeout"),
      timeout: () => new ReadPageError("timeout"),
      died: () => new ReadPageError("unsupported"),
      failed: () => new ReadPageError("unsupported"),
    },
  });
}

let pool: WorkerPool<ExtractJob, HtmlText> | undefined;

/**
 * An HTML page's title and Markdown, read in the extraction worker within READ_PAGE_EXTRACT_TIMEOUT_MS.
 * @param bytes the page's body, decoded in the worker by the Content-Type's charset
 * @param maxChars READ_PAGE_MAX_CHARS: Markdown past it is not written (lib/server/read-page/markdown.ts)
 * @param signal the turn's cancellation: a queued page is dropped
 * @throws ReadPageError "timeout" or "unsupported" (see extractPool); `signal`'s reason when it aborts
 */
export function extractHtml(bytes: Uint8Array, contentType: string, maxChars: number, signal?: AbortSignal): Promise<HtmlText> {
  pool ??= extractPool();
  return pool.run({ bytes, contentType, maxChars }, getConfig().READ_PAGE_EXTRACT_TIMEOUT_MS, signal);
}

/** Stop the extraction workers (tests; the process exits without it, the workers are unref'd). */
export async function closeExtractWorkers(): Promise<void> {
  await pool?.close();
  pool = undefined;
}
