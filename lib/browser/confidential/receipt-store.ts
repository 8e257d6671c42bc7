import type { VerifiedEnclave } from "./attestation";
import type { ConfidentialReceipt } from "./ehbp-client";

/** What a confidential turn verified and what Hush's server could observe of it. */
export interface ConfidentialTurnReceipt {
  /** What was verified, and when. */
  enclave: VerifiedEnclave;
  /** What Hush's server could observe: ciphertext sizes and timing. */
  transport: ConfidentialReceipt;
  /** Verification reused from the cache (no attestation fetched for this turn). */
  cached: boolean;
}


/**
 * The latest confidential turn's receipt in this tab, for the badge's receipt dialog (a plain external
 * store: React reads it with useSyncExternalStore). Kept in memory only; holds sizes, timings and what was
 * verified, never message text.
 */
let latest: ConfidentialTurnReceipt | null = null;
const listeners = new Set<() => void>();

/** Keep `receipt` as the latest and notify subscribers. */
export function recordReceipt(receipt: ConfidentialTurnReceipt): void {
  latest = receipt;
  for (const listener of listeners) listener();
}

/** The latest receipt of this tab, or null before the first confidential turn. */
export function latestReceipt(): ConfidentialTurnReceipt | null {
  return latest;
}

/** Subscribe to new receipts; returns the unsubscribe function. */
export function subscribeReceipts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
