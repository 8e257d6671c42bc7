import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { POST } from "@/app/api/confidential/chat/route";
import { getConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { closeQuota } from "@/lib/server/quota";
import { closeRateLimits } from "@/lib/server/rate-limit";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { fromPeer } from "../helpers/peer";
import { defaultAnswer, startFakeEnclave, type FakeEnclave } from "./upstream";

/**
 * The harness of the relay tests (relay.test.ts, relay-limits.test.ts): POST /api/confidential/chat, the real route handler, against a local HTTP server playing the enclave
 * (./upstream.ts records exactly what reached it). Nothing here is mocked: the relay's database checks
 * run on the test database, its quota and refusal stores are the real ones.
 */
export let t: TestDb;
export let enclave: FakeEnclave;
/** A second server: nothing the client sends may make the relay call it. */
export let decoy: FakeEnclave;
export const BASIC = "llama3-8b-8192";
export const PRO = "llama3-70b-8192";
export const API_KEY = "sk-relay-test-key";
export const KEY = "0f".repeat(32);
export const ENV = {
  CONFIDENTIAL_API_KEY: API_KEY,
  CONFIDENTIAL_MODELS: `${BASIC},${PRO}`,
  CONFIDENTIAL_TRUST: "development",
  CONFIDENTIAL_MODEL_BASIC: "enclave-basic",
  CONFIDENTIAL_MODEL_PRO: "enclave-pro",
  QUOTA_VISITOR_PER_DAY: "10000",
};
export const CHANGED = [
  "CONFIDENTIAL_BASE_URL",
  "CONFIDENTIAL_MAX_REQUEST_BYTES",
  "CONFIDENTIAL_TIMEOUT_MS",
  "CONFIDENTIAL_IDLE_TIMEOUT_MS",
  "CONFIDENTIAL_STREAM_TIMEOUT_MS",
  "CONFIDENTIAL_API_KEY_PRO",
  "QUOTA_FREE_PER_DAY",
  "SEARCH_PER_DAY_VISITOR",
  ...Object.keys(ENV),
];

/** This file's settings plus `extra`; whatever an earlier test set is undone. */
export function configure(extra: Record<string, string> = {}) {
  for (const k of CHANGED) delete process.env[k];
  Object.assign(process.env, ENV, { CONFIDENTIAL_BASE_URL: enclave.origin }, extra);
  resetConfigForTests();
}

/** A fresh visitor address, so quotas and refusals of one test do not touch another's. */
export const peer = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
export let peerSeq = 0;
// Each in a /64 of its own: IPv6 clients are counted by their /64 (lib/server/client-address.ts clientKey).
export const uniquePeer = () => `2001:db8:${(++peerSeq).toString(16)}:${randomBytes(2).toString("hex")}::1`;

export interface SendInit {
  url?: string;
  headers?: Record<string, string>;
  body?: Buffer | ReadableStream<Uint8Array> | null;
  signal?: AbortSignal;
  model?: string | null;
  key?: string | null;
  address?: string;
}

export function send(init: SendInit = {}): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "text/event-stream", ...init.headers };
  if (init.model !== null) headers["X-Hush-Model"] = init.model ?? BASIC;
  if (init.key !== null) headers["Ehbp-Encapsulated-Key"] = init.key ?? KEY;
  return POST(
    new Request(init.url ?? `${getConfig().APP_URL}/api/confidential/chat`, {
      method: "POST",
      headers: fromPeer(init.address ?? uniquePeer(), headers),
      body: init.body === undefined ? new TextEncoder().encode("ciphertext") : Buffer.isBuffer(init.body) ? new Uint8Array(init.body) : init.body,
      signal: init.signal,
      duplex: "half",
    } as RequestInit),
  );
}

/** Every byte value, several times, in a shuffled order. */
export function allBytes(repeat = 64): Buffer {
  const out = Buffer.alloc(256 * repeat);
  for (let i = 0; i < out.length; i++) out[i] = (i * 167 + (i >> 8)) & 0xff;
  return out;
}

export function streamOf(chunks: Buffer[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(new Uint8Array(chunks[i++]!));
      else controller.close();
    },
  });
}

export async function grantPro(userId: string) {
  await t.db.subscription.create({ data: { userId, status: "active", source: "manual" } });
}

/** Registers this harness's hooks in the calling test file. */
export function setUpRelayHarness(): void {
beforeAll(async () => {
  enclave = await startFakeEnclave();
  decoy = await startFakeEnclave();
  t = await setupTestDb();
  configure();
});

afterAll(async () => {
  await t.cleanup();
  await enclave.close();
  await decoy.close();
  await closeQuota();
  await closeRateLimits();
  for (const k of CHANGED) delete process.env[k];
  resetConfigForTests();
});

beforeEach(() => {
  configure();
  enclave.requests.length = 0;
  decoy.requests.length = 0;
  enclave.answer = () => defaultAnswer();
});
}
