/**
 * Child process for tests/db/migrate.test.ts: asks Prisma's own schema engine (WebAssembly, the
 * engine behind `prisma migrate deploy` and `status`) what it thinks of a database that lib/server/db/migrate.ts
 * migrated. Prints one JSON line. Usage: tsx --conditions=react-server tests/db/prisma-history.ts
 * <pglite data dir | postgresql:// url>. Exits explicitly: the engine keeps the process alive.
 */
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaPg } from "@prisma/adapter-pg";
import { engineMigrationList, loadSchemaEngine, NO_FILTERS } from "@/lib/server/db/schema-engine";

async function main(): Promise<void> {
  const target = process.argv[2]!;
  const pglite = target.startsWith("postgres") ? null : new PGlite(target);
  const engine = await loadSchemaEngine(pglite ? new PrismaPGlite(pglite) : new PrismaPg({ connectionString: target }));
  const migrationsList = engineMigrationList();
  const diagnose = await engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: NO_FILTERS });
  const deploy = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
  console.log(JSON.stringify({ diagnose, deploy }));
  await pglite?.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
