import { sha256Hex } from "./crypto";

/**
 * A synchronous SHA-256 (hash-wasm's WebAssembly, already a dependency for Argon2id) for the search
 * worker's integrity checks: verifyChat hashes every message ciphertext and chains the
 * results, ~20 small digests per chat, and WebCrypto's digest answers each on another thread, so a chat
 * waits on ~20 round trips. Same function, same hex digests; the chain format is unchanged.
 */

/** Small inputs hashed at load and compared with WebCrypto's digests before the hasher is trusted. */
const PROBES = ["", "abc", "hush chat v1|probe", "x".repeat(1000)];

/**
 * Load the hasher: `(bytes) => lowercase hex`, or null when WebAssembly is unavailable (e.g. refused by a
 * Content-Security-Policy) or its digests differ from WebCrypto's on the probes; callers then keep
 * WebCrypto's (lib/browser/vault/crypto.ts sha256Hex).
 */
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
