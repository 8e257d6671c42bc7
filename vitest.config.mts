import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": import.meta.dirname,
      // Next.js resolves "server-only" itself; outside Next it is an empty module.
      "server-only": path.join(import.meta.dirname, "tests/helpers/empty.ts"),
    },
  },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker per core but one; two on a 2-core machine are faster (docs/testing.md).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // The PGlite template of tests/db/setup-db.ts: one initdb per run instead of one per file.
    globalSetup: ["tests/helpers/pglite-template-setup.ts"],
    // A page's extraction takes seconds on a loaded 2-core machine; the limit's own test passes its own.
    env: { READ_PAGE_EXTRACT_TIMEOUT_MS: "60000" },
  },
});
