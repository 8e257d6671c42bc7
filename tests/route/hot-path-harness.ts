import http from "node:http";
import pg from "pg";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { getConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { installPeerStamp } from "@/lib/server/peer-address";
import { installRequestGuard } from "@/lib/server/request-guard";
import { closeQuota, flushQuota } from "@/lib/server/quota";
import { closeRateLimits } from "@/lib/server/rate-limit";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { startHotPathServer, stopHotPathServer } from "../helpers/hot-path-server";
import { defaultAnswer, startFakeEnclave, type FakeEnclave } from "../confidential/upstream";

/**
 * server.mjs's hot path (lib/server/hot-path.ts, docs/issues.md #24) over real HTTP: a node:http server that
 * answers through handleHotRequest as server.mjs does (anything else: 404 here, Next there), with the
 * peer stamp and request guard instrumentation installs, the fake LLM and a fake enclave as upstreams
 * and the test database. Statuses, error JSON, headers, streaming, cancellation, back-pressure, and the
 * database round trips before the model is called.
 */
export let t: TestDb;
export let llm: FakeLlmServer;
export let enclave: FakeEnclave;
export let server: http.Server;
export let base: string;
export const BASIC = "llama3-8b-8192";
export const KEY = "0f".repeat(32);
export const ENV: Record<string, string> = {
  QUOTA_VISITOR_PER_DAY: "10000",
  QUOTA_FREE_PER_DAY: "10000",
  LLM_API_KEY: "test",
  LLM_TIMEOUT_MS: "5000",
};
/** The relay's settings: the Basic model served confidentially (then refused in clear, 409). */
export const CONFIDENTIAL: Record<string, string> = {
  CONFIDENTIAL_API_KEY: "sk-hot-path-test",
  CONFIDENTIAL_MODELS: BASIC,
  CONFIDENTIAL_TRUST: "development",
  CONFIDENTIAL_MODEL_BASIC: "enclave-basic",
};

/** Confidential inference on (through `origin`) or off. */
export function confidential(origin: string | null) {
  for (const k of [...Object.keys(CONFIDENTIAL), "CONFIDENTIAL_BASE_URL"]) delete process.env[k];
  if (origin) Object.assign(process.env, CONFIDENTIAL, { CONFIDENTIAL_BASE_URL: origin });
  resetConfigForTests();
}

/** Statements sent to the database by any pg client of this process (PGlite is reached through pg too). */
export let statements = 0;
export const query = pg.Client.prototype.query;

export const ask = (content: string) => ({ messages: [{ role: "user", content }], model: BASIC, chat_id: null, save_chat: false });

export function post(path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", Origin: new URL(getConfig().APP_URL).origin, ...headers },
    body: typeof body === "string" ? body : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
    signal,
  });
}

/** Resolves true when `promise` settles within `ms`, false otherwise. */
export function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
}

/** Registers the hot-path server and its peers in the calling test file. */
export function setUpHotPathHarness(): void {
beforeAll(async () => {
  llm = await startFakeLlmServer();
  enclave = await startFakeEnclave();
  Object.assign(process.env, ENV, { LLM_BASE_URL: `${llm.url}/v1` });
  delete process.env.GROQ_API_KEY;
  t = await setupTestDb();
  resetConfigForTests();
  installPeerStamp();
  installRequestGuard();
  pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
    statements++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  ({ server, base } = await startHotPathServer());
});

afterAll(async () => {
  pg.Client.prototype.query = query;
  await stopHotPathServer(server);
  await t.cleanup();
  await llm.close();
  await enclave.close();
  await closeQuota();
  await closeRateLimits();
  for (const k of [...Object.keys(ENV), ...Object.keys(CONFIDENTIAL), "LLM_BASE_URL", "CONFIDENTIAL_BASE_URL"]) delete process.env[k];
  resetConfigForTests();
});

beforeEach(() => {
  confidential(null);
  llm.requests.length = 0;
  enclave.requests.length = 0;
  enclave.answer = () => defaultAnswer();
});
}

/**
 * Start counting database statements from zero, after writing the visitors' counts that earlier turns left
 * on the write-behind timer (lib/server/quota-write-behind.ts), which would otherwise land in the count.
 */
export async function resetStatements(): Promise<void> {
  await flushQuota();
  statements = 0;
}
