/**
 * Passphrase rating off the main thread: the browser's entry to lib/browser/vault/strength.ts. A rating
 * takes 20–700 ms on a phone profile (Chromium, CPU 4× slower, measured for docs/issues.md #21), too long for the
 * thread that handles typing, so it runs in ./strength.worker.ts, started when a passphrase field is first
 * focused (its chunk carries zxcvbn-ts's dictionaries: fetched then, never with a page). Kept apart from
 * strength.ts so the worker's own bundle does not reference the worker.
 */
import { ratePassphrase, type PassphraseRating } from "./strength";

let worker: Worker | null = null;
let workerBroken = false;
let nextId = 0;
const waiting = new Map<number, { resolve: (r: PassphraseRating) => void; reject: (e: unknown) => void; passphrase: string }>();

/**
 * The rating worker, started once. A classic worker, as for lib/browser/pdf: Turbopack's worker bootstrap
 * loads chunks with importScripts(), which a module worker refuses.
 */
function ratingWorker(): Worker | null {
  if (worker || workerBroken || typeof Worker === "undefined") return worker;
  try {
    worker = new Worker(new URL("./strength.worker.ts", import.meta.url), { name: "hush-strength" });
  } catch {
    workerBroken = true;
    return null;
  }
  worker.onmessage = (event: MessageEvent<{ hush?: string; id: number; rating?: PassphraseRating; failed?: true }>) => {
    const reply = event.data;
    if (reply?.hush !== "strength") return;
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (!pending) return;
    if (reply.rating) pending.resolve(reply.rating);
    else ratePassphrase(pending.passphrase).then(pending.resolve, pending.reject);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    // The worker could not start (its chunk failed to load): rate on this thread from now on.
    workerBroken = true;
    worker?.terminate();
    worker = null;
    for (const [id, pending] of waiting) {
      waiting.delete(id);
      ratePassphrase(pending.passphrase).then(pending.resolve, pending.reject);
    }
  };
  return worker;
}

/**
 * Rate `passphrase` in the rating worker, so typing stays smooth on a slow phone; on this thread when no
 * worker can run. Same answer as ratePassphrase. @throws Error when zxcvbn cannot be loaded.
 */
export function ratePassphraseOffThread(passphrase: string): Promise<PassphraseRating> {
  const w = ratingWorker();
  if (!w) return ratePassphrase(passphrase);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject, passphrase });
    w.postMessage({ hush: "strength", id, passphrase });
  });
}

/** Start the rating worker (the passphrase field got focus), so the first rating does not wait on the download. */
export function preloadStrength(): void {
  ratingWorker();
}
