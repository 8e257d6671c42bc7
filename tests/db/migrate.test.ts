import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb, openDb } from "@/lib/server/db/client";
import { applyMigrations, listMigrations, MIGRATIONS_DIR, type SqlRunner } from "@/lib/server/db/migrate";
import { setupTestDb, withScratchPostgres, type TestDb } from "./setup-db";

let t: TestDb;
beforeAll(async () => {
  t = await setupTestDb();
});
afterAll(async () => {
  await t?.cleanup();
});

const local = listMigrations();

describe("migrations", () => {
  it("finds the migration folders in order", () => {
    expect(local.length).toBeGreaterThanOrEqual(1);
    expect(local.map((m) => m.name)).toEqual([...local.map((m) => m.name)].sort());
    for (const m of local) expect(m.name).toMatch(/^\d{14}_[a-z0-9_]+$/);
  });

  it("records each migration in _prisma_migrations the way Prisma does", async () => {
    const rows = await t.db.$queryRawUnsafe<
      {
        id: string;
        checksum: string;
        migration_name: string;
        logs: string | null;
        started_at: Date;
        finished_at: Date | null;
        rolled_back_at: Date | null;
        applied_steps_count: number;
      }[]
    >(`SELECT * FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(rows.map((r) => r.migration_name)).toEqual(local.map((m) => m.name));
    for (const [i, row] of rows.entries()) {
      const file = fs.readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(file).digest("hex"));
      expect(row.checksum).toBe(local[i]!.checksum);
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row.applied_steps_count).toBe(1);
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
    }
    // The table's shape is Prisma's (prisma-engines, PostgreSQL).
    const columns = await t.db.$queryRawUnsafe<{ c: string }[]>(
      `SELECT column_name || ' ' || data_type || ' ' || coalesce(character_maximum_length::text, '-') || ' ' ||
              is_nullable || ' ' || coalesce(column_default, '-') AS c
       FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns.map((r) => r.c)).toEqual([
      "id character varying 36 NO -",
      "checksum character varying 64 NO -",
      "finished_at timestamp with time zone - YES -",
      "migration_name character varying 255 NO -",
      "logs text - YES -",
      "rolled_back_at timestamp with time zone - YES -",
      "started_at timestamp with time zone - NO now()",
      "applied_steps_count integer - NO 0",
    ]);
  });

  it("applies nothing on a second start", async () => {
    await closeDb();
    const again = await openDb(t.target);
    try {
      expect(again.appliedMigrations).toEqual([]);
      expect(await again.db.$queryRawUnsafe(`SELECT count(*)::int AS n FROM "_prisma_migrations"`)).toEqual([
        { n: local.length },
      ]);
    } finally {
      await again.close();
    }
    t.db = await getDb();
  });

  it("satisfies Prisma's own engine: history in sync, `migrate deploy` has nothing to apply", async () => {
    await closeDb(); // PGlite: one process at a time
    const where = t.target.kind === "pglite" ? t.target.dataDir : t.target.url;
    const { stdout } = await promisify(execFile)("npx", [
      "tsx",
      "--conditions=react-server",
      "tests/db/prisma-history.ts",
      where,
    ]);
    const report = JSON.parse(stdout.trim().split("\n").pop()!);
    expect(report).toEqual({
      diagnose: { editedMigrationNames: [], failedMigrationNames: [], hasMigrationsTable: true, history: null },
      deploy: { appliedMigrationNames: [] },
    });
    t.db = await getDb();
  });

  it.runIf(!!process.env.DATABASE_URL)("lets concurrent starts on PostgreSQL migrate exactly once", async () => {
    await withScratchPostgres(process.env.DATABASE_URL!, async (url) => {
      const handles = await Promise.all([1, 2, 3].map(() => openDb({ kind: "postgres", url })));
      try {
        expect(handles.map((h) => h.appliedMigrations.length).sort()).toEqual([0, 0, local.length]);
        const [first] = handles;
        expect(await first!.db.$queryRawUnsafe(`SELECT count(*)::int AS n FROM "_prisma_migrations"`)).toEqual([
          { n: local.length },
        ]);
      } finally {
        await Promise.all(handles.map((h) => h.close()));
      }
    });
  });
});

describe("the migration runner on failures", () => {
  let pglite: PGlite;
  let runner: SqlRunner;
  let dir: string;
  beforeAll(async () => {
    pglite = new PGlite();
    runner = {
      query: async (sql, params) => (await pglite.query<never>(sql, params)).rows,
      exec: async (sql) => void (await pglite.exec(sql)),
    };
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hush-migrations-"));
    fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  });
  afterAll(async () => {
    await pglite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("rolls back a failing migration entirely and records nothing for it", async () => {
    const bad = path.join(dir, "99990101000000_broken");
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, "migration.sql"), "CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;\n");
    await expect(applyMigrations(runner, { dir })).rejects.toThrow(/99990101000000_broken failed/);
    const tables = await runner.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'half_done'`);
    expect(tables).toEqual([{ n: 0 }]);
    const names = await runner.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations"`);
    expect(names.map((r) => r.migration_name)).toEqual(local.map((m) => m.name));
    // Fixed file: applies on the next start.
    fs.writeFileSync(path.join(bad, "migration.sql"), "CREATE TABLE half_done (id int);\n");
    expect(await applyMigrations(runner, { dir })).toEqual(["99990101000000_broken"]);
    expect(await applyMigrations(runner, { dir })).toEqual([]);
  });

  it("refuses to continue past a migration Prisma recorded as failed", async () => {
    await runner.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ('00000000-0000-4000-8000-000000000001', 'x', '99990202000000_failed_elsewhere', now(), 0)`,
    );
    await expect(applyMigrations(runner, { dir })).rejects.toMatchObject({ code: "internal:migration" });
    await expect(applyMigrations(runner, { dir })).rejects.toThrow(/99990202000000_failed_elsewhere failed earlier/);
  });
});

describe("an existing database with chats of the legacy server-key path (docs/issues.md #19)", () => {
  const DROP = "20261125062130_drop_legacy_server_key";

  /** Apply the migrations before DROP, add legacy and vault rows, then apply DROP as a restart would. */
  async function upgrade(runner: SqlRunner): Promise<void> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hush-migrations-"));
    try {
      for (const m of local.filter((m) => m.name < DROP)) fs.cpSync(path.join(MIGRATIONS_DIR, m.name), path.join(dir, m.name), { recursive: true });
      await applyMigrations(runner, { dir });
      await runner.exec(`
        INSERT INTO users (id, email) VALUES ('u1', 'legacy@example.test');
        INSERT INTO data_keys (user_id, wrapped_key, master_key_id) VALUES ('u1', '\\x01', 'abcdef0123456789');
        INSERT INTO chats (id, user_id, vault, title_ciphertext) VALUES
          ('00000000-0000-4000-8000-00000000000a', 'u1', false, '\\x01'),
          ('00000000-0000-4000-8000-00000000000b', 'u1', true, '\\x02');
        INSERT INTO messages (id, chat_id, position, role, content_ciphertext) VALUES
          ('00000000-0000-4000-8000-0000000000a0', '00000000-0000-4000-8000-00000000000a', 0, 'user', '\\x01'),
          ('00000000-0000-4000-8000-0000000000b0', '00000000-0000-4000-8000-00000000000b', 0, 'user', '\\x02');`);
      fs.cpSync(path.join(MIGRATIONS_DIR, DROP), path.join(dir, DROP), { recursive: true });
      expect(await applyMigrations(runner, { dir })).toEqual([DROP]);
      // The chat only the dropped key could open is gone with its messages; the vault chat stays whole.
      expect(await runner.query(`SELECT id::text, title_ciphertext FROM chats`)).toEqual([
        { id: "00000000-0000-4000-8000-00000000000b", title_ciphertext: expect.anything() },
      ]);
      expect(await runner.query(`SELECT chat_id::text FROM messages`)).toEqual([{ chat_id: "00000000-0000-4000-8000-00000000000b" }]);
      expect(await runner.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'data_keys'`)).toEqual([{ n: 0 }]);
      expect(
        await runner.query(`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'chats' AND column_name = 'vault'`),
      ).toEqual([{ n: 0 }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it("PGlite: deletes the legacy chats, drops chats.vault and data_keys, keeps the vault chats", async () => {
    await onPGlite(upgrade);
  }, 120_000);

  it.runIf(!!process.env.DATABASE_URL)("PostgreSQL: the same", async () => {
    await onScratchPostgres(upgrade);
  });
});

describe("an existing database with saved chats, when a chat's key becomes (user_id, id) (docs/issues.md #22)", () => {
  const KEY = "20261126093947_chat_key_per_user";

  /** Apply the migrations before KEY, add two users' chats, then apply KEY as a restart would. */
  async function upgrade(runner: SqlRunner): Promise<void> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hush-migrations-"));
    try {
      for (const m of local.filter((m) => m.name < KEY)) fs.cpSync(path.join(MIGRATIONS_DIR, m.name), path.join(dir, m.name), { recursive: true });
      await applyMigrations(runner, { dir });
      await runner.exec(`
        INSERT INTO users (id, email) VALUES ('u1', 'one@example.test'), ('u2', 'two@example.test');
        INSERT INTO chats (id, user_id, title_ciphertext) VALUES
          ('00000000-0000-4000-8000-00000000000a', 'u1', '\\x01'),
          ('00000000-0000-4000-8000-00000000000b', 'u2', '\\x02');
        INSERT INTO messages (id, chat_id, position, role, content_ciphertext) VALUES
          ('00000000-0000-4000-8000-0000000000a0', '00000000-0000-4000-8000-00000000000a', 0, 'user', '\\x01'),
          ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-00000000000a', 1, 'assistant', '\\x02'),
          ('00000000-0000-4000-8000-0000000000b0', '00000000-0000-4000-8000-00000000000b', 0, 'user', '\\x03');`);
      fs.cpSync(path.join(MIGRATIONS_DIR, KEY), path.join(dir, KEY), { recursive: true });
      expect(await applyMigrations(runner, { dir })).toEqual([KEY]);
      // Every message took its chat's owner.
      expect(await runner.query(`SELECT user_id, chat_id::text, position FROM messages ORDER BY user_id, position`)).toEqual([
        { user_id: "u1", chat_id: "00000000-0000-4000-8000-00000000000a", position: 0 },
        { user_id: "u1", chat_id: "00000000-0000-4000-8000-00000000000a", position: 1 },
        { user_id: "u2", chat_id: "00000000-0000-4000-8000-00000000000b", position: 0 },
      ]);
      // u2 may now hold a chat with u1's id; deleting u1's chat takes only u1's messages.
      await runner.exec(`
        INSERT INTO chats (id, user_id) VALUES ('00000000-0000-4000-8000-00000000000a', 'u2');
        INSERT INTO messages (id, user_id, chat_id, position, role, content_ciphertext)
          VALUES ('00000000-0000-4000-8000-0000000000c0', 'u2', '00000000-0000-4000-8000-00000000000a', 0, 'user', '\\x04');
        DELETE FROM chats WHERE user_id = 'u1';`);
      expect(await runner.query(`SELECT user_id, chat_id::text FROM messages ORDER BY chat_id`)).toEqual([
        { user_id: "u2", chat_id: "00000000-0000-4000-8000-00000000000a" },
        { user_id: "u2", chat_id: "00000000-0000-4000-8000-00000000000b" },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it("PGlite: backfills messages.user_id and lets two users hold the same chat id", async () => {
    await onPGlite(upgrade);
  }, 120_000);

  it.runIf(!!process.env.DATABASE_URL)("PostgreSQL: the same", async () => {
    await onScratchPostgres(upgrade);
  });
});

/** Run `work` against a fresh in-memory PGlite. */
async function onPGlite(work: (runner: SqlRunner) => Promise<void>): Promise<void> {
  const pglite = new PGlite();
  try {
    await work({
      query: async (sql, params) => (await pglite.query<never>(sql, params)).rows,
      exec: async (sql) => void (await pglite.exec(sql)),
    });
  } finally {
    await pglite.close();
  }
}

/** Run `work` against a scratch database on DATABASE_URL's PostgreSQL. */
async function onScratchPostgres(work: (runner: SqlRunner) => Promise<void>): Promise<void> {
  await withScratchPostgres(process.env.DATABASE_URL!, async (url) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await work({
        query: async (sql, params) => (await client.query(sql, params)).rows,
        exec: async (sql) => void (await client.query(sql)),
      });
    } finally {
      await client.end();
    }
  });
}
