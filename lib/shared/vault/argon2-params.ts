/**
 * Argon2id parameters of passphrase wraps: what the browser uses for new wraps and the
 * floor the server holds every stored wrap to. Browser-safe and import-free, so the request schemas
 * (lib/shared/vault/schemas.ts, loaded with the API contract) and the vault's crypto (lib/browser/vault/crypto.ts) share it
 * without pulling in each other.
 */

export type Argon2Params = { memoryKiB: number; iterations: number; parallelism: number };

/**
 * Argon2id for new passphrase wraps: m = 65,536 KiB (64 MiB), t = 3 passes, p = 4 lanes.
 *
 * Sources: RFC 9106 §4 ("Parameter Choice"), second recommended option, for when 2 GiB is too much memory:
 * "Argon2id with t=3 iterations, p=4 lanes, m=2^(16) (64 MiB of RAM)"; the same as Bitwarden's default for
 * Argon2id. The OWASP Password Storage Cheat Sheet lists equivalent-strength Argon2id configurations down to
 * m = 19 MiB, t = 2; its first one (m = 46 MiB, t = 1, p = 1) was what Hush used before docs/issues.md #21
 * (a passphrase then cost an attacker about a third of the work per guess).
 * hash-wasm runs the 4 lanes one after another in one thread, so p = 4 costs the browser what p = 1 would;
 * it is kept so the parameters are RFC 9106's and Bitwarden's exactly. Stored with each wrap, so a change
 * here affects new wraps only; older ones are wrapped again at their next unlock (lib/browser/vault/unlock.ts).
 * Unlock time on a phone profile: README, "Benchmarks" (bench/passphrase-unlock.ts).
 */
export const ARGON2ID = { memoryKiB: 65536, iterations: 3, parallelism: 4 } as const satisfies Argon2Params;

/**
 * The least the server stores: memory ≥ 65,536 KiB (64 MiB) and ≥ 3 passes; a wrap below it is
 * refused with 400 (lib/shared/vault/schemas.ts). Wraps stored before the floor are still served, so the browser can
 * open them once and wrap the key again at ARGON2ID.
 */
export const ARGON2ID_FLOOR = { memoryKiB: 65536, iterations: 3 } as const;

/** The floor in words, as the server's refusal names it. */
export const ARGON2ID_FLOOR_TEXT = `memory at least ${ARGON2ID_FLOOR.memoryKiB} KiB (64 MiB) and at least ${ARGON2ID_FLOOR.iterations} passes`;

/** True when `params` cost less than ARGON2ID in memory or passes: such a wrap is made again at the next unlock. */
export function weakerThanCurrent(params: Argon2Params | undefined): boolean {
  if (!params) return true;
  return params.memoryKiB < ARGON2ID.memoryKiB || params.iterations < ARGON2ID.iterations;
}
