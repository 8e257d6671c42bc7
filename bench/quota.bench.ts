/**
 * Cost of the quota check on the chat path: `npx tsx bench/quota.bench.ts`
 * (PostgreSQL: `BENCH_POSTGRES_URL=postgresql://root@127.0.0.1:5432/postgres`; Redis:
 * `BENCH_REDIS_URL=redis://127.0.0.1:6379`; each store is skipped when its setting is absent, PGlite
 * always runs).
 *
 * Per store: `consumeQuota` for a signed-in user (one atomic increment) and for a visitor (salted hash
 * + increment), sequentially (latency: median and p99 of 2,000 calls after 200 warm-up calls), then
 * 50 concurrent callers for 2,000 calls in all (throughput). The plan lookup that precedes it on
 * /api/ns/chat_user (`getPlan`, a primary-key read) is measured too. Limits are set high enough never
 * to refuse. Uses a throwaway database / Redis keys under a random user id.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";

if (!process.execArgv.includes("--conditions=react-server")) {
  const run = spawnSync(process.execPath, [...process.execArgv, "--conditions=react-server", ...process.argv.slice(1)], { stdio: "inherit" });
  process.exit(run.status ?? 1);
}

const N = 2000;
const WARMUP = 200;

async function latency(fn: () => Promise<void>): Promise<{ median: number; p99: number }> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(N / 2)]!, p99: times[Math.floor(N * 0.99)]! };
}

async function throughput(fn: () => Promise<void>, concurrency = 50): Promise<number> {
  let left = N;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await fn();
    }),
  );
  return N / (Number(process.hrtime.bigint() - t0) / 1e9);
}

async function main() {
  const { resetConfigForTests } = await import("../tests/helpers/process-state");
  const { closeDb, getDb } = await import("@/lib/server/db/client");
  const { closeQuota, consumeQuota } = await import("@/lib/server/quota");
  const { getPlan } = await import("@/lib/server/plans");
  const pg = (await import("pg")).default;

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hush-quota-bench-"));
  process.env.DATA_DIR = dataDir;
  Object.assign(process.env, { QUOTA_VISITOR_PER_DAY: "100000000", QUOTA_FREE_PER_DAY: "100000000", QUOTA_PRO_PER_DAY: "100000000" });

  const stores: { name: string; env: Record<string, string | undefined>; setup?: () => Promise<() => Promise<void>> }[] = [
    { name: "database: PGlite (embedded)", env: { DATABASE_URL: undefined, REDIS_URL: undefined } },
  ];
  const pgUrl = process.env.BENCH_POSTGRES_URL;
  if (pgUrl) {
    const name = `hush_bench_${randomBytes(4).toString("hex")}`;
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    stores.push({
      name: "database: PostgreSQL (local)",
      env: { DATABASE_URL: url.toString(), REDIS_URL: undefined },
      setup: async () => {
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        await admin.end();
        return async () => {
          const a = new pg.Client({ connectionString: pgUrl });
          await a.connect();
          await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await a.end();
        };
      },
    });
  }
  if (process.env.BENCH_REDIS_URL) {
    stores.push({ name: "Redis (local)", env: { DATABASE_URL: undefined, REDIS_URL: process.env.BENCH_REDIS_URL } });
  }

  console.log(`Quota check cost (${os.cpus().length} cores, Node ${process.version}); µs per call, calls/s at 50 concurrent`);
  for (const store of stores) {
    const teardown = store.setup ? await store.setup() : null;
    for (const [k, v] of Object.entries(store.env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await closeQuota();
    await closeDb();
    resetConfigForTests();
    const db = await getDb();
    const user = await db.user.create({ data: { email: `${randomBytes(6).toString("hex")}@bench.test` } });
    const userSubject = { kind: "user" as const, userId: user.id, plan: "Free" as const };
    const u = await latency(() => consumeQuota(userSubject));
    const v = await latency(() => consumeQuota({ kind: "visitor", address: "198.51.100.7" }));
    const p = await latency(async () => void (await getPlan(user.id)));
    const tput = await throughput(() => consumeQuota(userSubject));
    console.log(
      `${store.name}: user median ${u.median.toFixed(0)} p99 ${u.p99.toFixed(0)}; visitor median ${v.median.toFixed(0)} p99 ${v.p99.toFixed(0)}; ` +
        `getPlan median ${p.median.toFixed(0)}; ${tput.toFixed(0)} calls/s`,
    );
    await closeQuota();
    await closeDb();
    if (teardown) await teardown();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
