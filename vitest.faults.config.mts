import { defineConfig } from "vitest/config";
import base from "./vitest.config.mts";

/**
 * npm run test:faults: the embedded database's fault tests on the production build (tests/faults/, one file at a
 * time). The unit config's aliases, its own files and timeouts (mergeConfig would add the unit tests' include).
 */
export default defineConfig({
  resolve: base.resolve,
  test: {
    include: ["tests/faults/**/*.fault.ts"],
    environment: "node",
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: "forks",
    fileParallelism: false,
  },
});
