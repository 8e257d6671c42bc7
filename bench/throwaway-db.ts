import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * A database for one benchmark run, set up before the app's modules load: embedded PGlite in a temporary
 * folder, or, when DATABASE_URL names a PostgreSQL server, a database created on it for this run. Sets
 * DATA_DIR, APP_URL (http://127.0.0.1:3000) and DATABASE_URL. `drop()` removes what it made (close the
 * app's database client first).
 */
export async function throwawayDatabase(): Promise<{ drop: () => Promise<void> }> {
  const server = process.env.DATABASE_URL;
  let dbName: string | null = null;
  if (server) {
    dbName = `hush_bench_${randomBytes(4).toString("hex")}`;
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    await c.query(`CREATE DATABASE ${dbName}`);
    await c.end();
    const url = new URL(server);
    url.pathname = `/${dbName}`;
    process.env.DATABASE_URL = url.toString();
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hush-bench-"));
  process.env.DATA_DIR = dataDir;
  process.env.APP_URL = "http://127.0.0.1:3000";
  return {
    drop: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!server || !dbName) return;
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    },
  };
}
