/**
 * Development tooling only: Prisma's schema engine as WebAssembly over a driver adapter, so migrations diff offline.
 * Never import from the app: the engine keeps the process alive afterwards, so callers end with `process.exit()`.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine, SchemaFilter } from "@prisma/schema-engine-wasm";
import { listMigrations, MIGRATIONS_DIR } from "@/lib/server/db/migrate";
import { logger } from "@/lib/server/log";

export type { SchemaEngine };

export const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };
export const SCHEMA_PATH = path.join(process.cwd(), "prisma", "schema.prisma");

type Glue = typeof import("@prisma/schema-engine-wasm") & { __wbg_set_wasm(exports: WebAssembly.Exports): void };
let glue: Promise<Glue> | undefined;

/** Instantiated once per process (a second instance corrupts the bindings' state). */
function loadGlue(): Promise<Glue> {
  glue ??= (async () => {
    // The engine reports Rust panics through this global (the Prisma CLI installs the same).
    const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
    g.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (message) => logger("db").error({ panic: message }, "schema engine panic") };
    const require = createRequire(path.join(process.cwd(), "package.json"));
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const mod = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as Glue;
    const bytes = fs.readFileSync(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": mod });
    mod.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return mod;
  })();
  return glue;
}

/** A schema engine for `schemaPath` over `adapter`; engine log lines go to `log` (silent by default). */
export async function loadSchemaEngine(
  adapter: SqlMigrationAwareDriverAdapterFactory,
  options: { schemaPath?: string; log?: (line: string) => void } = {},
): Promise<SchemaEngine> {
  const schemaPath = options.schemaPath ?? SCHEMA_PATH;
  const { SchemaEngine } = await loadGlue();
  return SchemaEngine.new(
    { datamodels: [[schemaPath, fs.readFileSync(schemaPath, "utf8")]] },
    (line: string) => options.log?.(line),
    bindMigrationAwareSqlAdapterFactory(adapter),
  );
}

export function engineMigrationList(dir: string = MIGRATIONS_DIR): MigrationList {
  const lockPath = path.join(dir, "migration_lock.toml");
  return {
    baseDir: dir,
    lockfile: {
      path: "migration_lock.toml",
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: listMigrations(dir).map((m) => ({
      path: m.name,
      migrationFile: { path: "migration.sql", content: { tag: "ok", value: m.sql } },
    })),
  };
}
