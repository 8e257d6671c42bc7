import { afterAll, beforeAll } from "vitest";
import { resetConfigForTests } from "./process-state";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { startFakeLlmServer, type FakeLlmServer } from "./fake-llm-server";

/** The variables setUpFakeLlmAndTestDb() sets (besides LLM_API_KEY) and deletes afterwards. */
const ENV_KEYS = ["LLM_BASE_URL", "LLM_TIMEOUT_MS", "QUOTA_VISITOR_PER_DAY"];

/**
 * Registers, in the calling file or describe block, the set-up of route tests that call the chat routes' handlers
 * directly: before all, the fake OpenAI-compatible server (tests/helpers/fake-llm-server.ts) as LLM_BASE_URL with
 * LLM_API_KEY "test", LLM_TIMEOUT_MS 5000, QUOTA_VISITOR_PER_DAY 10000 and no GROQ_API_KEY, and the test database;
 * after all, both closed and those variables (but LLM_API_KEY) deleted. Returns `{ llm, t }`, filled once the
 * beforeAll has run.
 */
export function setUpFakeLlmAndTestDb(): { llm: FakeLlmServer; t: TestDb } {
  const handle = {} as { llm: FakeLlmServer; t: TestDb };
  beforeAll(async () => {
    handle.llm = await startFakeLlmServer();
    Object.assign(process.env, { LLM_BASE_URL: `${handle.llm.url}/v1`, LLM_API_KEY: "test", LLM_TIMEOUT_MS: "5000", QUOTA_VISITOR_PER_DAY: "10000" });
    delete process.env.GROQ_API_KEY;
    handle.t = await setupTestDb();
    resetConfigForTests();
  });
  afterAll(async () => {
    await handle.t.cleanup();
    await handle.llm.close();
    for (const k of ENV_KEYS) delete process.env[k];
    resetConfigForTests();
  });
  return handle;
}
