/**
 * State that must be one per process, in one home. Next evaluates lib/server modules in more than one
 * bundle (instrumentation.ts's copy, which also serves server.mjs's hot path, and each route's), so a
 * module-level variable would exist once per bundle: two database pools, two rate-limit stores, a
 * drain that misses the turns of the other copy. Each such value lives in a named slot of one registry
 * on globalThis under PROCESS_STATE_KEY; nothing else in lib keeps state on globalThis. In development
 * the same slots also survive Next's hot reload, which re-evaluates modules.
 *
 * server.mjs, which imports nothing of lib (it would load a third copy), reads the `hotPath` slot by the
 * same key (lib/server/hot-path.ts installHotPath) and fills `httpServer` (its node:http server, whose
 * connections lib/server/lifecycle.ts closes at the end of a drain).
 */

/** The slots; each is owned by the module named beside it. */
export type SlotName =
  | "config" // lib/server/config.ts
  | "db" // lib/server/db/client.ts
  | "quota" // lib/server/quota.ts
  | "rateLimits" // lib/server/rate-limit.ts
  | "lifecycle" // lib/server/lifecycle.ts
  | "confidentialUsage" // lib/server/confidential/usage.ts
  | "continuations" // lib/server/chat/continuation.ts
  | "consoleRouted" // lib/server/log.ts
  | "hotPath" // lib/server/hot-path.ts, read by server.mjs
  | "httpServer"; // server.mjs, read by lib/server/lifecycle.ts

/** The registry's key on globalThis (server.mjs spells it the same). */
export const PROCESS_STATE_KEY = Symbol.for("hush.process");

type Registry = Partial<Record<SlotName, { value: unknown }>>;

/**
 * The process-wide holder of slot `name`: read and write its `value` (undefined until first set). Every
 * bundle's call for the same name returns the same object. The caller names the value's type.
 */
export function processSlot<T>(name: SlotName): { value: T | undefined } {
  const g = globalThis as typeof globalThis & { [PROCESS_STATE_KEY]?: Registry };
  const registry = (g[PROCESS_STATE_KEY] ??= {});
  return (registry[name] ??= { value: undefined }) as { value: T | undefined };
}
