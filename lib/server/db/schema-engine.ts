/**
 * Development tooling only (scripts/db-new-migration.ts, tests): Prisma's schema engine compiled to
 * WebAssembly, driven through a driver adapter, so diffing and checking migrations needs neither the
 * native engine (downloaded by the Prisma CLI, impossible offline) nor a database server.
 * Never import this from the app: loading the engine takes about a second, and it keeps the process
 * alive about 60 s afterwards, so callers end with `process.exit()` (stack-facts "Prisma 7").
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

/**
 * Instantiate the schema engine for `schemaPath` over `adapter` (e.g. PrismaPGlite on an in-memory
 * PGlite, or PrismaPg). Engine log lines go to `log` (silent by default).
 */
type Glue = typeof import("@prisma/schema-engine-wasm") & { __wbg_set_wasm(exports: WebAssembly.Exports): void };
let glue: Promise<Glue> | undefined;

/** The wasm module, instantiated once per process (a second instance corrupts the bindings' state). */
function loadGlue(): Promise<Glue> {
  glue ??= (async () => {
    // The engine reports Rust panics through this global (the Prisma CLI installs the same).
    const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
    g.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (message) => logger("db").error({ panic: message }, "schema engine panic") };
    const require = createRequire(path.join(process.cwd(), "package.json"));
    // The package exports only its JS glue; the .wasm sits beside it.
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

/**
 * A schema engine for `schemaPath` over `adapter` (e.g. PrismaPGlite on an in-memory PGlite, or
 * PrismaPg). Engine log lines go to `log` (silent by default).
 */
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

/** The migrations folder in the engine's input shape. */
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
