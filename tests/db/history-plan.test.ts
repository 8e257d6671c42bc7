import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, hashSessionToken } from "@/lib/server/db/sessions";
import { HISTORY_PAGE_SQL_FOR_TESTS } from "@/lib/server/db/history-json";
import { setupTestDb, type TestDb } from "./setup-db";
import { createTestUser } from "../helpers/auth";

/**
 * GET /api/ns/chat_history's first page (lib/server/db/history-json.ts) runs as a prepared statement, so after a few
 * executions PostgreSQL may use one generic plan for every user. That plan must read at most limit + 1
 * chats from the index however many the user has: with the page written as a join of the session and the
 * chats, a generic plan read and sorted all of them (bench/perf, docs/issues.md #24: the first page took
 * 4.65 ms against 0.66 ms of raw SQL once the bench's user had thousands of chats). Checked with
 * `plan_cache_mode = force_generic_plan` and EXPLAIN ANALYZE on PGlite and, with DATABASE_URL, PostgreSQL.
 */
let t: TestDb;
let tokenHash = "";
const CHATS = 3000;
const LIMIT = 50;

beforeAll(async () => {
  t = await setupTestDb();
  const user = await createTestUser();
  tokenHash = hashSessionToken((await createSession(user.id)).token);
  await t.db.$executeRawUnsafe(
    `INSERT INTO chats (id, user_id, title_ciphertext, last_updated)
     SELECT gen_random_uuid(), $1, '\\x00'::bytea, now() - make_interval(secs => g) FROM generate_series(1, ${CHATS}) g`,
    user.id,
  );
  // Another user's chats, so the table is not the user's alone.
  const other = await createTestUser();
  await t.db.$executeRawUnsafe(
    `INSERT INTO chats (id, user_id, last_updated) SELECT gen_random_uuid(), $1, now() FROM generate_series(1, 500)`,
    other.id,
  );
  await t.db.$executeRawUnsafe("ANALYZE chats");
});

afterAll(async () => {
  await t.cleanup();
});

interface PlanNode {
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

/** Rows the plan read from `chats`, over every node that scans it. */
function chatRowsRead(node: PlanNode): number {
  const own = node["Relation Name"] === "chats" ? (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1) : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + chatRowsRead(child), 0);
}

describe("the first page's generic plan", () => {
  it(`reads at most limit + 1 of a user's ${CHATS} chats`, async () => {
    const plan = await t.db.$transaction(async (tx) => {
      // One connection for all of these (PostgreSQL's pool has several).
      await tx.$executeRawUnsafe("SET LOCAL plan_cache_mode = force_generic_plan");
      await tx.$executeRawUnsafe(`PREPARE history_plan_test AS ${HISTORY_PAGE_SQL_FOR_TESTS}`);
      const args = `'${tokenHash}', '${new Date().toISOString()}', ${LIMIT + 1}, ${LIMIT}`;
      const [row] = await tx.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE history_plan_test(${args})`);
      const [page] = await tx.$queryRawUnsafe<{ chats: string | null }[]>(`EXECUTE history_plan_test(${args})`);
      await tx.$executeRawUnsafe("DEALLOCATE history_plan_test");
      return { explain: row!["QUERY PLAN"], page };
    });
    const explain = (typeof plan.explain === "string" ? JSON.parse(plan.explain) : plan.explain) as { Plan: PlanNode }[];
    expect(JSON.parse(plan.page!.chats!)).toHaveLength(LIMIT);
    const read = chatRowsRead(explain[0]!.Plan);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThanOrEqual(LIMIT + 1);
  });
});
