import path from "node:path";
import { defineConfig } from "vitest/config";

/** npm run test:faults: the embedded database's fault tests on the production build (tests/faults/, in order, one at a time). */
export default defineConfig({
  resolve: {
    alias: {
      "@": import.meta.dirname,
      "server-only": path.join(import.meta.dirname, "tests/helpers/empty.ts"),
    },
  },
  test: {
    include: ["tests/faults/**/*.fault.ts"],
    environment: "node",
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: "forks",
    fileParallelism: false,
  },
});
