const MiB = 1024 * 1024;

/** The padded length for `bytes` bytes: at least 256, then the next power of two up to 1 MiB, then the next whole MiB. */
export function paddedLength(bytes: number): number {
  const needed = bytes + 1;
  if (needed <= 256) return 256;
  if (needed <= MiB) return 2 ** Math.ceil(Math.log2(needed));
  return Math.ceil(needed / MiB) * MiB;
}

export function isPaddedLength(bytes: number): boolean {
  if (bytes < 256) return false;
  if (bytes <= MiB) return (bytes & (bytes - 1)) === 0;
  return bytes % MiB === 0;
}
