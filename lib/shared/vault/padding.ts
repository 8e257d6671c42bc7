/**
 * The length buckets of vault fields (format 3, lib/browser/vault/crypto.ts): a field's
 * plaintext is padded so that its stored length tells only its bucket. Browser-safe and dependency-free,
 * so the server's request schema (lib/shared/vault/schemas.ts) checks the same rule the browser pads by.
 */

const MiB = 1024 * 1024;

/**
 * The padded plaintext length for `bytes` bytes of text: room for the 0x80 marker, at least 256, then
 * the next power of two up to 1 MiB, then the next whole MiB.
 */
export function paddedLength(bytes: number): number {
  const needed = bytes + 1;
  if (needed <= 256) return 256;
  if (needed <= MiB) return 2 ** Math.ceil(Math.log2(needed));
  return Math.ceil(needed / MiB) * MiB;
}

/** True when `bytes` is one of the bucket lengths paddedLength returns. */
export function isPaddedLength(bytes: number): boolean {
  if (bytes < 256) return false;
  if (bytes <= MiB) return (bytes & (bytes - 1)) === 0;
  return bytes % MiB === 0;
}
