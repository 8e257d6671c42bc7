import "server-only";
import { getConfig } from "@/lib/server/config";
import { getDb } from "@/lib/server/db/client";
import { dataDirHolder } from "@/lib/server/db/data-dir-lock";
import { isDiskFull } from "@/lib/server/db/errors";
import { listMigrations } from "@/lib/server/db/migrate";
import { isDraining } from "@/lib/server/lifecycle";
import { pingQuotaRedis } from "@/lib/server/quota";

/**
 * Readiness (GET /api/ready): the database answers, every migration is finished, Redis answers when set, and the
 * process is not draining. Each probe is bounded by PROBE_TIMEOUT_MS.
 */

export type CheckState = "ok" | "failed" | "not configured";

export interface Readiness {
  ready: boolean;
  checks: { database: CheckState; migrations: CheckState; redis: CheckState; shutdown: "no" | "draining" };
  /** In PostgreSQL's or the lock's words, without paths or addresses. */
  databaseReason?: string;
}

/** The lock holder, PostgreSQL's PANIC/FATAL line, a full disk or a time-out; null when nothing more is known. */
function databaseFailureReason(error: unknown): string | null {
  const holder = dataDirHolder(error);
  if (holder) return `DATA_DIR is in use by process ${holder.pid}`;
  if (isDiskFull(error)) return "No space left on device";
  const message = error instanceof Error ? error.message : "";
  const postgres = /\b(PANIC|FATAL):\s+(.*)$/m.exec(message);
  if (postgres) return `${postgres[1]}: ${postgres[2]!.replace(/"[^"]*"/g, '"…"').slice(0, 200)}`;
  if (/timed out after/.test(message)) return "no answer within 2 s";
  return null;
}

const PROBE_TIMEOUT_MS = 2_000;

let localMigrations: string[] | undefined;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Never throws. */
export async function checkReadiness(): Promise<Readiness> {
  localMigrations ??= listMigrations().map((m) => m.name);
  const wanted = localMigrations;

  const database = withTimeout(
    (async () => {
      const db = await getDb();
      return db.$queryRawUnsafe<{ migration_name: string }[]>(
        `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      );
    })(),
    PROBE_TIMEOUT_MS,
  );
  const redis = getConfig().REDIS_URL ? withTimeout(pingQuotaRedis(), PROBE_TIMEOUT_MS) : null;

  const [dbResult, redisResult] = await Promise.allSettled([database, redis ?? Promise.resolve()]);
  const checks: Readiness["checks"] = {
    database: dbResult.status === "fulfilled" ? "ok" : "failed",
    migrations: "failed",
    redis: redis === null ? "not configured" : redisResult.status === "fulfilled" ? "ok" : "failed",
    shutdown: isDraining() ? "draining" : "no",
  };
  if (dbResult.status === "fulfilled") {
    const applied = new Set(dbResult.value.map((r) => r.migration_name));
    checks.migrations = wanted.every((name) => applied.has(name)) ? "ok" : "failed";
  }
  const ready =
    checks.database === "ok" && checks.migrations === "ok" && checks.redis !== "failed" && checks.shutdown === "no";
  const databaseReason = dbResult.status === "rejected" ? (databaseFailureReason(dbResult.reason) ?? undefined) : undefined;
  return { ready, checks, ...(databaseReason ? { databaseReason } : {}) };
}
