#!/usr/bin/env node
/**
 * `npm run postinstall`: generates the Prisma client into lib/server/db/generated/prisma. PRISMA_SCHEMA_ENGINE_BINARY
 * points at a dummy so the CLI skips downloading the native engine, which the app never needs.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(root, "package.json"));
let prismaCli;
try {
  prismaCli = path.join(path.dirname(require.resolve("prisma/package.json")), "build", "index.js");
} catch {
  // `npm ci --omit=dev`: the client was generated in the build stage; failing would fail the install.
  console.warn("prisma-generate: the prisma CLI is not installed (devDependency); client not regenerated.");
  process.exit(0);
}

const env = { ...process.env, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" };
let tmpDir;
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  if (process.platform === "win32") {
    // Any existing executable will do: generate only checks that the file exists.
    env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
  } else {
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "hush-prisma-"));
    const dummy = path.join(tmpDir, "schema-engine");
    fs.writeFileSync(dummy, "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    env.PRISMA_SCHEMA_ENGINE_BINARY = dummy;
  }
}

const result = spawnSync(process.execPath, [prismaCli, "generate"], { cwd: root, env, stdio: "inherit" });
if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
if (result.error) throw result.error;
process.exit(result.status ?? 1);
