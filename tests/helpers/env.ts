import { resetConfigForTests } from "./process-state";

/**
 * Set each of `values` in process.env (an `undefined` value deletes the variable), then reset the server's cached
 * config (lib/server/config.ts) so the next getConfig() reads them.
 */
export function setEnv(values: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfigForTests();
}
