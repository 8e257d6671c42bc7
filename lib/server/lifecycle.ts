import "server-only";
import { AppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";
import { processSlot } from "@/lib/server/process-state";

/**
 * Process lifecycle: the work in flight (chat turns and writes) and graceful shutdown (docs/deploy.md
 * "Restarts", docs/issues.md #53).
 *
 * Work in flight is one registry of two kinds: a chat turn (provider call through its answer, beginTurn)
 * and a write (every request but GET/HEAD, from the route wrapper's first step to its answer,
 * lib/server/api/route.ts beginWrite). On SIGTERM (or SIGINT) the process
 *   1. reports not ready (GET /api/ready answers 503) and refuses new turns and writes with 503
 *      (DRAINING_MESSAGE, Retry-After: 1): no write starts once draining began;
 *   2. lets the server's own handler close the listening socket — Next 16's start-server.js registers
 *      `cleanup` for both signals: `server.close()`, then `nextServer.close()`, then `process.exit(143)`;
 *      server.mjs registers its own, which also answers `Connection: close` from then on; we call it
 *      ourselves and hold back its exit;
 *   3. waits for every turn and write in flight to finish, for at most SHUTDOWN_GRACE_SECONDS; turns
 *      still running then are aborted (their clients get an SSE `error` event with status 503, nothing
 *      is saved half-way); writes are never aborted, only the hard stop (grace + 10 s) cuts them;
 *   4. waits a moment for the connections to close, closes the rest (server.mjs's `httpServer` slot),
 *      then closes the database pool and Redis, and exits 0.
 * Its state is one per process (lib/server/process-state.ts): every bundle's work drains together.
 */

/** Why a turn was aborted by the server (as opposed to the client going away): the AbortSignal's reason. */
const shutdownAbort = () => new AppError("unavailable:shutdown", "server shutting down");

/** True when an AbortSignal's reason says the server is shutting down (not the client going away). */
export function isShutdownAbort(reason: unknown): boolean {
  return reason instanceof AppError && reason.code === "unavailable:shutdown";
}

/** What a client whose answer was cut off by a restart reads (status 503). */
export const SHUTDOWN_MESSAGE = "The server restarted before the answer finished. Please send your message again.";
/** What a new chat request gets while the process drains (status 503, Retry-After: 1). */
export const DRAINING_MESSAGE = "This server is restarting. Please send your message again.";

/** One piece of work in flight: a chat turn (abortable at the end of the grace period) or a write. */
type Work = { kind: "turn"; controller: AbortController } | { kind: "write" };

interface Lifecycle {
  draining: boolean;
  work: Set<Work>;
  idle: (() => void)[];
  installed: boolean;
}

const state: Lifecycle = (processSlot<Lifecycle>("lifecycle").value ??= { draining: false, work: new Set(), idle: [], installed: false });
// A state made by an older copy of this module (development hot reload) gets the registry it lacks.
state.work ??= new Set();

/** What server.mjs puts in the `httpServer` slot: its node:http server, whose connections the drain closes last. */
interface HttpServerSlot {
  closeAllConnections(): void;
}

/** True once a shutdown signal arrived: readiness fails and new chat turns and writes are refused. */
export function isDraining(): boolean {
  return state.draining;
}

function count(kind: Work["kind"]): number {
  let n = 0;
  for (const w of state.work) if (w.kind === kind) n++;
  return n;
}

/** Number of chat turns in flight (provider call through its answer). */
export function turnsInFlight(): number {
  return count("turn");
}

/** Number of writes in flight (requests but GET/HEAD inside the route wrapper). */
export function writesInFlight(): number {
  return count("write");
}

/**
 * Refuse work while shutting down; the chat routes call it before counting the quota, so a refused
 * send costs the user nothing.
 * @throws AppError 503 unavailable:draining (Retry-After: 1) while the process drains.
 */
export function assertAcceptingTurns(): void {
  if (state.draining) throw new AppError("unavailable:draining", DRAINING_MESSAGE, { headers: { "Retry-After": "1" } });
}

/** Add `work` to the registry; the returned function removes it (once) and wakes the drain when idle. */
function register(work: Work): () => void {
  state.work.add(work);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    state.work.delete(work);
    if (state.work.size === 0) for (const resolve of state.idle.splice(0)) resolve();
  };
}

/**
 * Register a database write (any request but GET/HEAD, lib/server/api/route.ts) until its answer is made,
 * so the drain lets it finish and closes the database only after it (docs/issues.md #53).
 * @returns `end()`, to call exactly once when the answer (or the error's) is ready; later calls do nothing.
 * @throws AppError 503 unavailable:draining (Retry-After: 1) once the process drains: a write never starts then.
 */
export function beginWrite(): { end(): void } {
  assertAcceptingTurns();
  return { end: register({ kind: "write" }) };
}

/**
 * Register a chat turn for the duration of its provider call and save.
 * @param requestSignal the request's abort signal (the client going away).
 * @returns `signal` to hand the provider (aborts on client disconnect or at the end of the grace period;
 *   `isShutdownAbort(signal.reason)` tells the two apart) and `end()`, to call exactly once when
 *   the turn is over (answered, saved or failed).
 * @throws AppError 503 while the process is shutting down.
 */
export function beginTurn(requestSignal: AbortSignal): { signal: AbortSignal; end(): void } {
  assertAcceptingTurns();
  const controller = new AbortController();
  const unregister = register({ kind: "turn", controller });
  // The request's abort passed on by a listener rather than AbortSignal.any, whose bookkeeping (weak
  // references, a finalization registry) was a visible share of a turn's CPU.
  const onRequestAbort = () => controller.abort(requestSignal.reason);
  if (requestSignal.aborted) onRequestAbort();
  else requestSignal.addEventListener("abort", onRequestAbort, { once: true });
  return {
    signal: controller.signal,
    end() {
      requestSignal.removeEventListener("abort", onRequestAbort);
      unregister();
    },
  };
}

function whenIdle(): Promise<void> {
  return state.work.size === 0 ? Promise.resolve() : new Promise((resolve) => state.idle.push(resolve));
}

export interface ShutdownOptions {
  /** Longest wait for turns and writes in flight, milliseconds (SHUTDOWN_GRACE_SECONDS). */
  graceMs: number;
  /** Close the database pool, Redis, ... */
  closeResources(): Promise<void>;
  /** Exit the process (tests pass a spy); default process.exit. */
  exit?: (code: number) => void;
  log?: (line: string) => void;
}

/**
 * Take over SIGTERM and SIGINT (called once from instrumentation at start-up, after Next registered its
 * own handlers, which are kept and called from ours).
 */
export function installShutdownHandlers(options: ShutdownOptions): void {
  if (state.installed) return;
  state.installed = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const theirs = process.listeners(signal);
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(signal, theirs as ((s: NodeJS.Signals) => void)[], options));
  }
}

/**
 * Drain and exit (see the module comment). Exported for tests; a second call while draining does nothing.
 * @param theirs the signal handlers that were registered before ours (Next's `cleanup`).
 */
export async function shutdown(
  signal: NodeJS.Signals,
  theirs: ((s: NodeJS.Signals) => void)[],
  options: ShutdownOptions,
): Promise<void> {
  if (state.draining) return;
  state.draining = true;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const log = options.log ?? ((line: string) => logger("lifecycle").info(line));
  log(`[hush] ${signal}: draining ${turnsInFlight()} chat turn(s) and ${writesInFlight()} write(s), grace ${Math.round(options.graceMs / 1000)} s`);

  // Never hang: past the grace period plus time to abort and close, exit non-zero.
  const hardStop = setTimeout(() => {
    log("[hush] shutdown did not finish in time; exiting");
    exit(1);
  }, options.graceMs + 10_000);
  hardStop.unref();

  // Next's cleanup (or server.mjs's) closes the listening socket and ends with process.exit; hold that
  // exit back so the work can finish and this function decides the code. Its exit marks "every connection closed".
  let nextDone: () => void = () => undefined;
  const nextClosed = new Promise<void>((resolve) => (nextDone = resolve));
  const realExit = process.exit;
  if (theirs.length) {
    process.exit = ((code?: number) => {
      void code;
      nextDone();
    }) as typeof process.exit;
    for (const handler of theirs) handler(signal);
  } else {
    nextDone();
  }

  const abortAll = setTimeout(() => {
    log(`[hush] grace period over: aborting ${turnsInFlight()} chat turn(s), waiting for ${writesInFlight()} write(s)`);
    for (const work of state.work) if (work.kind === "turn") work.controller.abort(shutdownAbort());
  }, options.graceMs);
  await whenIdle();
  clearTimeout(abortAll);
  // The answers just made are still being written; connections then close (server.mjs answers
  // `Connection: close` while draining). Wait a moment, then close whatever is left (idle keep-alive
  // sockets, reads) before the database goes, so nothing is served by a closed database.
  await Promise.race([nextClosed, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  processSlot<HttpServerSlot>("httpServer").value?.closeAllConnections();
  try {
    await options.closeResources();
  } catch (error) {
    log(`[hush] closing resources failed: ${error instanceof Error ? error.message : "unknown"}`);
  }
  process.exit = realExit;
  clearTimeout(hardStop);
  log("[hush] shutdown complete");
  exit(0);
}

/** Reset the registry (tests only). */
export function resetLifecycleForTests(): void {
  state.draining = false;
  state.work.clear();
  state.idle.splice(0);
  state.installed = false;
}
