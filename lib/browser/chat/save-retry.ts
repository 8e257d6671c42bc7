import { AppError } from "@/lib/shared/errors";

// A turn the server did not store for a network failure (0), a restart (503) or a full disk (507) is kept in the page
// and saved again until it goes through; any other refusal is final.

export const SAVE_RETRY_DELAYS_MS = [2_000, 5_000, 10_000, 30_000, 60_000] as const;

export function keptForRetry(error: unknown): boolean {
  return error instanceof AppError && (error.status === 0 || error.status === 503 || error.status === 507);
}

export function notSavedYetText(error: unknown): string {
  const why = error instanceof AppError ? error.message.trim() : "";
  const sentence = why === "" ? "" : /[.!?]$/.test(why) ? `${why} ` : `${why}. `;
  return `This answer is not saved yet: ${sentence}It is kept in this page and will be saved as soon as the server accepts it again.`;
}

export interface RetryTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const windowTimers: RetryTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

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
