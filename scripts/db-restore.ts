/**
 * `npm run db:restore -- <file>`: restore a db:backup archive into an empty DATA_DIR, under its lock. Then re-apply
 * account deletions made since the backup (docs/deploy.md "Backups"). Exit status: 0 restored, 1 failed, 2 usage.
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
