import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A freshly created PGlite folder of this run, copied by tests/db/setup-db.ts; "" on PostgreSQL. */
    pgliteTemplate: string;
  }
}

/**
 * Vitest's globalSetup: one PGlite folder (PostgreSQL's initdb, unmigrated) made once per run by the app's own
 * creation step (lib/server/db/pglite-server.mjs with `initOnly` and the config's defaults), handed to the test
 * files with provide() and removed when the run ends. Made here, before any file, so no file's beforeAll pays it.
 * None when DATABASE_URL names a PostgreSQL server.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.DATABASE_URL) {
    project.provide("pgliteTemplate", "");
    return () => undefined;
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "hush-pglite-template-"));
  const template = path.join(root, "pglite");
  const worker = new Worker(path.join(process.cwd(), "lib/server/db/pglite-server.mjs"), {
    workerData: { dataDir: template, sharedBuffersMb: 16, durable: true, initOnly: true },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once("message", (m: { ready?: boolean; error?: string }) => (m.ready ? undefined : reject(new Error(`PGlite template: ${m.error}`))));
    worker.once("error", reject);
    worker.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`PGlite template worker exited with code ${code}`))));
  });
  project.provide("pgliteTemplate", template);
  return () => fs.rmSync(root, { recursive: true, force: true });
}
