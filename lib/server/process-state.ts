/** One-per-process state: Next evaluates lib/server in several bundles, so values live in slots on globalThis. */

export type SlotName =
  | "config" // lib/server/config.ts
  | "db" // lib/server/db/client.ts
  | "quota" // lib/server/quota.ts
  | "rateLimits" // lib/server/rate-limit.ts
  | "lifecycle" // lib/server/lifecycle.ts
  | "confidentialUsage" // lib/server/confidential/usage.ts
  | "keyVacuum" // lib/server/db/key-vacuum.ts
  | "consoleRouted" // lib/server/log.ts
  | "hotPath" // lib/server/hot-path.ts, read by server.mjs
  | "httpServer"; // server.mjs, read by lib/server/lifecycle.ts

/** server.mjs spells it the same. */
const PROCESS_STATE_KEY = Symbol.for("hush.process");

type Registry = Partial<Record<SlotName, { value: unknown }>>;

export function processSlot<T>(name: SlotName): { value: T | undefined } {
  const g = globalThis as typeof globalThis & { [PROCESS_STATE_KEY]?: Registry };
  const registry = (g[PROCESS_STATE_KEY] ??= {});
  return (registry[name] ??= { value: undefined }) as { value: T | undefined };
}
