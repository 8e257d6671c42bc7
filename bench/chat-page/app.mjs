/**
 * Start-up of the apps bench/chat-page.mjs measures: a production build served as `npm start` serves it, on a
 * throwaway data folder.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Resolves once GET `url` answers 2xx; throws after `ms`. */
export async function waitFor(url, ms = 120_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${url}`);
}

/**
 * Start the production build in `dir` on 127.0.0.1:`port` with a fresh data folder; returns { child, dataDir }
 * (the caller kills the child and removes the folder).
 */
export function startApp(dir, port) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hush-bench-"));
  // As `npm start` runs it (server.mjs, docs/issues.md #24); `next start` for a checkout from before it.
  const server = existsSync(path.join(dir, "server.mjs")) ? ["server.mjs"] : [path.join(dir, "node_modules/next/dist/bin/next"), "start"];
  const child = spawn(process.execPath, [...server, "-p", String(port), "-H", "127.0.0.1"], {
    cwd: dir,
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      APP_URL: `http://127.0.0.1:${port}`,
      NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789abcdef0123456789",
      LLM_BASE_URL: "http://127.0.0.1:9/v1",
      LLM_API_KEY: "bench",
    },
  });
  return { child, dataDir };
}
