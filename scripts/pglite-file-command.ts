import fs from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/server/config";

export interface PgliteFileCommand {
  database: { kind: "pglite"; dataDir: string; sharedBuffersMb?: number; durable?: boolean };
  /** An absolute path. */
  file: string;
}

/**
 * db:backup's and db:restore's checks: one argument, the embedded database, the archive `new` or `existing`.
 * @returns the target, or the exit status after printing why not (2 usage, 1 refused).
 */
export function pgliteFileCommand(
  argv: string[],
  command: { name: "db:backup" | "db:restore"; postgres: string; file: "new" | "existing" },
): PgliteFileCommand | number {
  const [argument] = argv;
  if (!argument || argv.length !== 1) {
    console.error(`Usage: npm run ${command.name} -- <file>`);
    return 2;
  }
  const database = getConfig().database;
  if (database.kind !== "pglite") {
    console.error(`DATABASE_URL is set: ${command.postgres} (docs/deploy.md "Backups").`);
    return 1;
  }
  const file = path.resolve(argument);
  if (command.file === "new" && fs.existsSync(file)) {
    console.error(`${file} exists: name a new file.`);
    return 1;
  }
  if (command.file === "existing" && !fs.existsSync(file)) {
    console.error(`${file} does not exist.`);
    return 1;
  }
  return { database, file };
}
