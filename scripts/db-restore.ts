/**
 * `npm run db:restore -- <file>`: restore a backup made by `npm run db:backup` into DATA_DIR, which must
 * hold no database yet (DATA_DIR/pglite absent or empty): it refuses a non-empty one, and holds DATA_DIR's
 * lock while it writes. Then start the server as usual. Exit status: 0 restored, 1 failed, 2 usage.
 * After a restore, apply again the account deletions made since the backup (docs/deploy.md "Backups").
 */
import fs from "node:fs";
import path from "node:path";
import { runMain } from "./run-main";
import { getConfig } from "@/lib/server/config";
import { restorePglite } from "@/lib/server/db/client";

async function main(argv: string[]): Promise<number> {
  const [source] = argv;
  if (!source || argv.length !== 1) {
    console.error("Usage: npm run db:restore -- <file>");
    return 2;
  }
  const database = getConfig().database;
  if (database.kind !== "pglite") {
    console.error("DATABASE_URL is set: restore PostgreSQL with its own tools (docs/deploy.md \"Backups\").");
    return 1;
  }
  const file = path.resolve(source);
  if (!fs.existsSync(file)) {
    console.error(`${file} does not exist.`);
    return 1;
  }
  await restorePglite(database.dataDir, file, database.sharedBuffersMb ?? 16, database.durable ?? true);
  console.log(`Restored ${file} into ${path.dirname(database.dataDir)}.`);
  return 0;
}

runMain(() => main(process.argv.slice(2)));
