import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as ready } from "@/app/api/ready/route";
import { resetConfigForTests, resetLifecycleForTests } from "../helpers/process-state";
import { closeDb } from "@/lib/server/db/client";
import { currentHolder, lockFileOf } from "@/lib/server/db/data-dir-lock";
import { shutdown } from "@/lib/server/lifecycle";
import { closeQuota } from "@/lib/server/quota";
import { redisAvailable, TEST_REDIS_URL } from "../helpers/redis";
import { setupTestDb, type TestDb } from "../db/setup-db";

/** GET /api/health and GET /api/ready, the real handlers on a real database (PGlite, or PostgreSQL). */
let t: TestDb;
beforeAll(async () => {
  t = await setupTestDb();
});
afterAll(async () => {
  delete process.env.REDIS_URL;
  await closeQuota();
  resetConfigForTests();
  resetLifecycleForTests();
  await t.cleanup();
});

async function readyNow() {
  const res = await ready(new Request("http://127.0.0.1:3000/api/ready"));
  return { status: res.status, cache: res.headers.get("cache-control"), body: (await res.json()) as Record<string, unknown> };
}

describe("GET /api/health", () => {
  it("answers 200 ok, never cached", async () => {
    const res = await health(new Request("http://127.0.0.1:3000/api/health"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "ok" });
  });
});

describe("GET /api/ready", () => {
  it("is ready when the database answers with every migration applied (Redis not configured)", async () => {
    expect(await readyNow()).toEqual({
      status: 200,
      cache: "no-store",
      body: { status: "ready", checks: { database: "ok", migrations: "ok", redis: "not configured", shutdown: "no" } },
    });
  });

  it("is not ready while a migration of this build is missing from the database", async () => {
    const [row] = await t.db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM "_prisma_migrations" ORDER BY migration_name DESC LIMIT 1`,
    );
    await t.db.$executeRawUnsafe(`UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE id = $1`, row!.id);
    try {
      const r = await readyNow();
      expect(r.status).toBe(503);
      expect(r.body).toEqual({
        error: "Not ready: migrations.",
        checks: { database: "ok", migrations: "failed", redis: "not configured", shutdown: "no" },
      });
    } finally {
      await t.db.$executeRawUnsafe(`UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE id = $1`, row!.id);
    }
    expect((await readyNow()).status).toBe(200);
  });

  it("fails when REDIS_URL is set and Redis does not answer, and names only the component", async () => {
    process.env.REDIS_URL = "redis://127.0.0.1:5599/5"; // nothing listens there (this helper's port range)
    resetConfigForTests();
    try {
      const r = await readyNow();
      expect(r.status).toBe(503);
      expect(r.body).toEqual({
        error: "Not ready: redis.",
        checks: { database: "ok", migrations: "ok", redis: "failed", shutdown: "no" },
      });
      expect(JSON.stringify(r.body)).not.toContain("5599");
    } finally {
      delete process.env.REDIS_URL;
      await closeQuota();
      resetConfigForTests();
    }
  });

  it("checks Redis when it is configured and answers", async (ctx) => {
    if (!(await redisAvailable())) ctx.skip();
    process.env.REDIS_URL = `${TEST_REDIS_URL}/5`;
    resetConfigForTests();
    try {
      expect((await readyNow()).body).toEqual({
        status: "ready",
        checks: { database: "ok", migrations: "ok", redis: "ok", shutdown: "no" },
      });
    } finally {
      delete process.env.REDIS_URL;
      await closeQuota();
      resetConfigForTests();
    }
  });

  it("reports not ready once shutdown began, while liveness still answers", async () => {
    const exits: number[] = [];
    await shutdown("SIGTERM", [], { graceMs: 1_000, closeResources: async () => undefined, exit: (c) => exits.push(c), log: () => undefined });
    try {
      expect(exits).toEqual([0]);
      const r = await readyNow();
      expect(r.status).toBe(503);
      expect(r.body).toEqual({
        error: "Not ready: shutdown.",
        checks: { database: "ok", migrations: "ok", redis: "not configured", shutdown: "draining" },
      });
      expect((await health(new Request("http://127.0.0.1:3000/api/health"))).status).toBe(200);
    } finally {
      resetLifecycleForTests();
    }
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))("GET /api/ready when the embedded database cannot be opened", () => {
  it("stays 503 and says why: the folder's lock is held by another live process", async () => {
    const savedDir = process.env.DATA_DIR;
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "hush-ready-locked-"));
    const holder = spawn("sleep", ["30"]);
    try {
      const stat = fs.readFileSync(`/proc/${holder.pid}/stat`, "utf8");
      const startTicks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
      fs.writeFileSync(lockFileOf(path.join(other, "pglite")), JSON.stringify({ ...currentHolder(), pid: holder.pid, startTicks, command: "sleep" }));
      await closeDb();
      process.env.DATA_DIR = other;
      resetConfigForTests();
      const r = await readyNow();
      expect(r.status).toBe(503);
      expect(r.body.error).toBe(`Not ready: database (DATA_DIR is in use by process ${holder.pid}), migrations.`);
    } finally {
      holder.kill("SIGKILL");
      process.env.DATA_DIR = savedDir;
      resetConfigForTests();
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
