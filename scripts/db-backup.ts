/**
 * `npm run db:backup -- <file>`: a consistent PGlite archive of DATA_DIR, written by the running server through its
 * control socket when one holds the lock, else here. Refuses with DATABASE_URL (docs/deploy.md "Backups").
 * Exit status: 0 written, 1 failed, 2 usage.
 */
import net from "node:net";
import { pgliteFileCommand } from "./pglite-file-command";
import { runMain } from "./run-main";
import { openDb } from "@/lib/server/db/client";
import { holderIsGone, readLock } from "@/lib/server/db/data-dir-lock";

/** @returns the archive's size in bytes. */
function askServer(socketPath: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${JSON.stringify({ op: "backup", file })}\n`));
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      try {
        const reply = JSON.parse(answer) as { bytes?: number; error?: string };
        if (typeof reply.bytes === "number") resolve(reply.bytes);
        else reject(new Error(reply.error ?? "no answer"));
      } catch {
        reject(new Error(`unexpected answer from the server: ${answer.slice(0, 200)}`));
      }
    });
  });
}

async function main(argv: string[]): Promise<number> {
  const target = pgliteFileCommand(argv, { name: "db:backup", postgres: "back PostgreSQL up with pg_basebackup or pg_dump", file: "new" });
  if (typeof target === "number") return target;
  const { database, file } = target;
  const holder = readLock(database.dataDir);
  let bytes: number;
  if (holder && !holderIsGone(holder)) {
    if (!holder.control) {
      console.error(`DATA_DIR is in use by process ${holder.pid} (${holder.command}), which serves no backup channel: stop it, then run this again.`);
      return 1;
    }
    bytes = await askServer(holder.control, file);
    console.log(`Backup written by the running server (process ${holder.pid}): ${file} (${bytes} bytes).`);
  } else {
    const handle = await openDb(database, { migrate: false });
    try {
      bytes = await handle.backup!(file);
    } finally {
      await handle.close();
    }
    console.log(`Backup written: ${file} (${bytes} bytes).`);
  }
  return 0;
}

runMain(() => main(process.argv.slice(2)));
