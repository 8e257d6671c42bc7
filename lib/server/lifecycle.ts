import "server-only";
import { AppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";
import { processSlot } from "@/lib/server/process-state";

/**
 * Process lifecycle: the chat turns in flight and graceful shutdown (docs/deploy.md "Restarts").
 *
 * On SIGTERM (or SIGINT) the process
 *   1. reports not ready (GET /api/ready answers 503) and refuses new chat turns with 503;
 *   2. lets Next's own handler close the listening socket (no new connections) — Next 16's
 *      start-server.js registers `cleanup` for both signals: `server.close()`, then `nextServer.close()`,
 *      then `process.exit(143)`; we call it ourselves and hold back its exit;
 *   3. waits for every chat turn in flight to finish, including saving its turn, for at most
 *      SHUTDOWN_GRACE_SECONDS; turns still running then are aborted (their clients get an SSE `error`
 *      event with status 503, nothing is saved half-way);
 *   4. closes the database pool and Redis, and exits 0.
 * Its state is one per process (lib/server/process-state.ts): every bundle's turns drain together.
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

interface Lifecycle {
  draining: boolean;
  turns: Set<AbortController>;
  idle: (() => void)[];
  installed: boolean;
}

const state: Lifecycle = (processSlot<Lifecycle>("lifecycle").value ??= { draining: false, turns: new Set(), idle: [], installed: false });

/** True once a shutdown signal arrived: readiness fails and new chat turns are refused. */
export function isDraining(): boolean {
  return state.draining;
}

/** Number of chat turns in flight (provider call through saving). */
export function turnsInFlight(): number {
  return state.turns.size;
}

/**
 * Refuse work while shutting down; the chat routes call it before counting the quota, so a refused
 * send costs the user nothing.
 * @throws AppError 503 (Retry-After: 1) while the process drains.
 */
export function assertAcceptingTurns(): void {
  if (state.draining) throw new AppError("unavailable:draining", DRAINING_MESSAGE, { headers: { "Retry-After": "1" } });
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
  state.turns.add(controller);
  // The request's abort passed on by a listener rather than AbortSignal.any, whose bookkeeping (weak
  // references, a finalization registry) was a visible share of a turn's CPU.
  const onRequestAbort = () => controller.abort(requestSignal.reason);
  if (requestSignal.aborted) onRequestAbort();
  else requestSignal.addEventListener("abort", onRequestAbort, { once: true });
  let ended = false;
  return {
    signal: controller.signal,
    end() {
      if (ended) return;
      ended = true;
      requestSignal.removeEventListener("abort", onRequestAbort);
      state.turns.delete(controller);
      if (state.turns.size === 0) for (const resolve of state.idle.splice(0)) resolve();
    },
  };
}

function whenIdle(): Promise<void> {
  return state.turns.size === 0 ? Promise.resolve() : new Promise((resolve) => state.idle.push(resolve));
}

export interface ShutdownOptions {
  /** Longest wait for turns in flight, milliseconds (SHUTDOWN_GRACE_SECONDS). */
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
  log(`[hush] ${signal}: draining ${state.turns.size} chat turn(s), grace ${Math.round(options.graceMs / 1000)} s`);

  // Never hang: past the grace period plus time to abort and close, exit non-zero.
  const hardStop = setTimeout(() => {
    log("[hush] shutdown did not finish in time; exiting");
    exit(1);
  }, options.graceMs + 10_000);
  hardStop.unref();

  // Next's cleanup closes the listening socket and ends with process.exit(143); hold that exit back so
  // the turns can finish and this function decides the code. Its exit marks "every connection closed".
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
    log(`[hush] grace period over: aborting ${state.turns.size} chat turn(s)`);
    for (const controller of state.turns) controller.abort(shutdownAbort());
  }, options.graceMs);
  await whenIdle();
  clearTimeout(abortAll);
  // Other short requests finish with their connections; keep-alive connections from the proxy may stay
  // open, so wait for Next at most a moment.
  await Promise.race([nextClosed, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
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
  state.turns.clear();
  state.idle.splice(0);
  state.installed = false;
}
