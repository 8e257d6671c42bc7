import { AppError } from "@/lib/shared/errors";

/**
 * A saved chat's turn the server did not store, kept in the page and saved again until it goes through
 * (docs/issues.md #53): a network failure (status 0), a server restarting (503) or out of disk space (507) stored
 * nothing, and the same save succeeds once the server accepts writes again. Any other refusal is final.
 */

/** Waits before each new attempt, in ms; the last one repeats. */
export const SAVE_RETRY_DELAYS_MS = [2_000, 5_000, 10_000, 30_000, 60_000] as const;

/** True when a failed save stored nothing and is worth sending again as it is (status 0, 503, 507). */
export function keptForRetry(error: unknown): boolean {
  return error instanceof AppError && (error.status === 0 || error.status === 503 || error.status === 507);
}

/** What the chat shows while a kept turn waits: the server's (or the network's) sentence, then what happens next. */
export function notSavedYetText(error: unknown): string {
  const why = error instanceof AppError ? error.message.trim() : "";
  const sentence = why === "" ? "" : /[.!?]$/.test(why) ? `${why} ` : `${why}. `;
  return `This answer is not saved yet: ${sentence}It is kept in this page and will be saved as soon as the server accepts it again.`;
}

/** Timers, replaceable in tests. */
export interface RetryTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const windowTimers: RetryTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Call `attempt` after each of SAVE_RETRY_DELAYS_MS until it resolves (`onSaved`) or fails for a reason
 * other than keptForRetry (`onGaveUp` with that error). `cancel()` stops it (a newer save supersedes it,
 * the chat was left); nothing runs after it.
 */
export function retryKeptSave(
  attempt: () => Promise<void>,
  hooks: { onSaved(): void; onGaveUp(error: unknown): void },
  timers: RetryTimers = windowTimers,
): { cancel(): void } {
  let cancelled = false;
  let handle: unknown = null;
  const schedule = (n: number) => {
    handle = timers.set(() => {
      handle = null;
      if (cancelled) return;
      attempt().then(
        () => {
          if (!cancelled) hooks.onSaved();
        },
        (error: unknown) => {
          if (cancelled) return;
          if (keptForRetry(error)) schedule(n + 1);
          else hooks.onGaveUp(error);
        },
      );
    }, SAVE_RETRY_DELAYS_MS[Math.min(n, SAVE_RETRY_DELAYS_MS.length - 1)]!);
  };
  schedule(0);
  return {
    cancel() {
      cancelled = true;
      if (handle !== null) timers.clear(handle);
    },
  };
}
