// A rating is too slow for the thread that handles typing, so it runs in ./strength.worker.ts; kept apart from
// ./strength.ts so the worker's own bundle does not reference the worker.
import { ratePassphrase, type PassphraseRating } from "./strength";

let worker: Worker | null = null;
let workerBroken = false;
let nextId = 0;
const waiting = new Map<number, { resolve: (r: PassphraseRating) => void; reject: (e: unknown) => void; passphrase: string }>();

// A classic worker: Turbopack's worker bootstrap loads chunks with importScripts(), which a module worker refuses.
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

/** Rate `passphrase` in the worker, or on this thread when none can run. @throws Error when zxcvbn cannot load */
export function ratePassphraseOffThread(passphrase: string): Promise<PassphraseRating> {
  const w = ratingWorker();
  if (!w) return ratePassphrase(passphrase);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject, passphrase });
    w.postMessage({ hush: "strength", id, passphrase });
  });
}

export function preloadStrength(): void {
  ratingWorker();
}
