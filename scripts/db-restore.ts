/**
 * `npm run db:restore -- <file>`: restore a backup made by `npm run db:backup` into DATA_DIR, which must
 * hold no database yet (DATA_DIR/pglite absent or empty): it refuses a non-empty one, and holds DATA_DIR's
 * lock while it writes. Then start the server as usual. Exit status: 0 restored, 1 failed, 2 usage.
 * After a restore, apply again the account deletions made since the backup (docs/deploy.md "Backups").
 */
import path from "node:path";
import { pgliteFileCommand } from "./pglite-file-command";
import { runMain } from "./run-main";
import { restorePglite } from "@/lib/server/db/client";

async function main(argv: string[]): Promise<number> {
  const target = pgliteFileCommand(argv, { name: "db:restore", postgres: "restore PostgreSQL with its own tools", file: "existing" });
  if (typeof target === "number") return target;
  const { database, file } = target;
  await restorePglite(database.dataDir, file, database.sharedBuffersMb ?? 16, database.durable ?? true);
  console.log(`Restored ${file} into ${path.dirname(database.dataDir)}.`);
  return 0;
}

runMain(() => main(process.argv.slice(2)));
