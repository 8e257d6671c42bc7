export type Argon2Params = { memoryKiB: number; iterations: number; parallelism: number };

/** Argon2id for new passphrase wraps: m = 64 MiB, t = 3, p = 4 (RFC 9106 §4, second recommended option). */
export const ARGON2ID = { memoryKiB: 65536, iterations: 3, parallelism: 4 } as const satisfies Argon2Params;

/** The least the server stores; wraps stored before it are still served, to be wrapped again at ARGON2ID. */
export const ARGON2ID_FLOOR = { memoryKiB: 65536, iterations: 3 } as const;

export const ARGON2ID_FLOOR_TEXT = `memory at least ${ARGON2ID_FLOOR.memoryKiB} KiB (64 MiB) and at least ${ARGON2ID_FLOOR.iterations} passes`;

export function weakerThanCurrent(params: Argon2Params | undefined): boolean {
  if (!params) return true;
  return params.memoryKiB < ARGON2ID.memoryKiB || params.iterations < ARGON2ID.iterations;
}
