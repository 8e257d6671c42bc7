import { sha256Hex } from "./crypto";

// A synchronous SHA-256 for the search worker: WebCrypto's digest answers on another thread, so a chat's ~20 small
// chained digests would wait on ~20 round trips. Same hex digests.

const PROBES = ["", "abc", "hush chat v1|probe", "x".repeat(1000)];

/** Load the hasher, or null when WebAssembly is unavailable or its digests differ from WebCrypto's on the probes. */
export async function loadSyncSha256(): Promise<((bytes: Uint8Array<ArrayBuffer>) => string) | null> {
  try {
    const { createSHA256 } = await import("hash-wasm");
    const hasher = await createSHA256();
    const sha = (bytes: Uint8Array<ArrayBuffer>) => hasher.init().update(bytes).digest("hex");
    const utf8 = new TextEncoder();
    for (const probe of PROBES) {
      const bytes = utf8.encode(probe);
      if (sha(bytes) !== (await sha256Hex(bytes))) return null;
    }
    return sha;
  } catch {
    return null;
  }
}
