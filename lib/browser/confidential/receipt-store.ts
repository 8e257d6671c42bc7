import type { VerifiedEnclave } from "./attestation";
import type { ConfidentialReceipt } from "./ehbp-client";

export interface ConfidentialTurnReceipt {
  enclave: VerifiedEnclave;
  transport: ConfidentialReceipt;
  cached: boolean;
}


// The latest confidential turn's receipt in this tab, in memory only: sizes, timings and what was verified, never text.
let latest: ConfidentialTurnReceipt | null = null;
const listeners = new Set<() => void>();

export function recordReceipt(receipt: ConfidentialTurnReceipt): void {
  latest = receipt;
  for (const listener of listeners) listener();
}

export function latestReceipt(): ConfidentialTurnReceipt | null {
  return latest;
}

export function subscribeReceipts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
