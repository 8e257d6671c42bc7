import path from "node:path";
import { defineConfig } from "@playwright/test";
import base from "../playwright.config";

/**
 * Runs bench/search-page.bench.ts with the e2e servers of playwright.config.ts (production build, fake
 * LLM, SMTP for the sign-in link), started from the repository root:
 * `npx next build && npx playwright test -c bench/search-page.config.ts`.
 */
// Run from the repository root, as the other npm/npx commands are.
const root = process.cwd();
const servers = Array.isArray(base.webServer) ? base.webServer : base.webServer ? [base.webServer] : [];
export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "search-page.bench.ts",
  outputDir: path.join(root, "test-results"),
  // Not the e2e suite's trace recording: its screenshots, DOM snapshots and network capture run in the
  // browser and in Playwright's driver on the same 2 cores as what is timed (docs/performance.md).
  use: { ...base.use, trace: "off" },
  timeout: 600_000,
  webServer: servers.map((s) => ({ ...s, cwd: root })),
});
