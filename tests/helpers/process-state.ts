import type { Config } from "@/lib/server/config";
import type { LifecycleState } from "@/lib/server/lifecycle";
import { processSlot } from "@/lib/server/process-state";

/** Forget the parsed Config (the "config" slot of lib/server/config.ts); tests that change process.env call this. */
export function resetConfigForTests(): void {
  processSlot<Config>("config").value = undefined;
}

/** Undo a test's shutdown: not draining, no work in flight, no waiters, signal handlers not marked installed. */
export function resetLifecycleForTests(): void {
  const state = processSlot<LifecycleState>("lifecycle").value;
  if (!state) return;
  state.draining = false;
  state.work.clear();
  state.idle.splice(0);
  state.installed = false;
}
