import "server-only";
import { AppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";
import { processSlot } from "@/lib/server/process-state";

/** Work in flight and graceful shutdown (docs/deploy.md "Restarts"). */

const shutdownAbort = () => new AppError("unavailable:shutdown", "server shutting down");

export function isShutdownAbort(reason: unknown): boolean {
  return reason instanceof AppError && reason.code === "unavailable:shutdown";
}

export const SHUTDOWN_MESSAGE = "The server restarted before the answer finished. Please send your message again.";
export const DRAINING_MESSAGE = "This server is restarting. Please send your message again.";

type Work = { kind: "turn"; controller: AbortController } | { kind: "write" };

/** The "lifecycle" slot: the drain flag, the work in flight, the waiters for idle, and whether signals are hooked. */
export interface LifecycleState {
  draining: boolean;
  work: Set<Work>;
  idle: (() => void)[];
  installed: boolean;
}

const state: LifecycleState = (processSlot<LifecycleState>("lifecycle").value ??= { draining: false, work: new Set(), idle: [], installed: false });
state.work ??= new Set();

interface HttpServerSlot {
  closeAllConnections(): void;
}

export function isDraining(): boolean {
  return state.draining;
}

function count(kind: Work["kind"]): number {
  let n = 0;
  for (const w of state.work) if (w.kind === kind) n++;
  return n;
}

export function turnsInFlight(): number {
  return count("turn");
}

export function writesInFlight(): number {
  return count("write");
}

/** @throws AppError 503 unavailable:draining (Retry-After: 1) while the process drains. */
export function assertAcceptingTurns(): void {
  if (state.draining) throw new AppError("unavailable:draining", DRAINING_MESSAGE, { headers: { "Retry-After": "1" } });
}

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

/** Register a write until its answer is made. @returns `end()`. @throws AppError 503 once the process drains. */
export function beginWrite(): { end(): void } {
  assertAcceptingTurns();
  return { end: register({ kind: "write" }) };
}

/** @returns `signal` (aborts on disconnect or at the end of the grace period) and `end()`. @throws AppError 503 */
export function beginTurn(requestSignal: AbortSignal): { signal: AbortSignal; end(): void } {
  assertAcceptingTurns();
  const controller = new AbortController();
  const unregister = register({ kind: "turn", controller });
  // A listener rather than AbortSignal.any, whose bookkeeping is costly per turn.
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
  graceMs: number;
  closeResources(): Promise<void>;
  exit?: (code: number) => void;
  log?: (line: string) => void;
}

/** Next's own handlers, registered before, are called from ours. */
export function installShutdownHandlers(options: ShutdownOptions): void {
  if (state.installed) return;
  state.installed = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const theirs = process.listeners(signal);
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(signal, theirs as ((s: NodeJS.Signals) => void)[], options));
  }
}

/** A second call while draining does nothing. */
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

  const hardStop = setTimeout(() => {
    log("[hush] shutdown did not finish in time; exiting");
    exit(1);
  }, options.graceMs + 10_000);
  hardStop.unref();

  // Next's cleanup calls process.exit; that exit is held back until the work is done.
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
