import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A folder of this run where tests/db/setup-db.ts keeps its PGlite template (made at the first use). */
    pgliteTemplateRoot: string;
  }
}

/**
 * Vitest's globalSetup: one empty folder per run for the PGlite template of tests/db/setup-db.ts, handed to the
 * test files with provide(); removed with what is in it when the run ends.
 */
export default function setup(project: TestProject): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "hush-pglite-template-"));
  project.provide("pgliteTemplateRoot", root);
  return () => fs.rmSync(root, { recursive: true, force: true });
}
