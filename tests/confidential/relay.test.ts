import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/confidential/chat/route";
import { POST as visitorChat } from "@/app/api/ns/chat/route";
import { POST as userChat } from "@/app/api/ns/chat_user/route";
import { sessionCookieName } from "@/lib/server/auth/cookies";
import { getConfig, resetConfigForTests } from "@/lib/server/config";
import { MISMATCH_MESSAGE } from "@/lib/server/confidential/relay";
import { usageTotals } from "@/lib/server/confidential/usage";
import { captureLogsForTests } from "@/lib/server/log";
import { closeQuota } from "@/lib/server/quota";
import { closeRateLimits } from "@/lib/server/rate-limit";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sameOrigin, sessionCookieFor } from "../helpers/auth";
import { fromPeer } from "../helpers/peer";
import { defaultAnswer, NONCE, startFakeEnclave, type FakeEnclave, type UpstreamAnswer } from "./upstream";

/**
 * POST /api/confidential/chat, the real route handler, against a local HTTP server playing the enclave
 * (./upstream.ts records exactly what reached it). Nothing here is mocked: the relay's database checks
 * run on the test database, its quota and refusal stores are the real ones.
 */
let t: TestDb;
let enclave: FakeEnclave;
/** A second server: nothing the client sends may make the relay call it. */
let decoy: FakeEnclave;
const BASIC = "llama3-8b-8192";
const PRO = "llama3-70b-8192";
const API_KEY = "sk-relay-test-key";
const KEY = "0f".repeat(32);
const ENV = {
  CONFIDENTIAL_API_KEY: API_KEY,
  CONFIDENTIAL_MODELS: `${BASIC},${PRO}`,
  CONFIDENTIAL_TRUST: "development",
  CONFIDENTIAL_MODEL_BASIC: "enclave-basic",
  CONFIDENTIAL_MODEL_PRO: "enclave-pro",
  QUOTA_VISITOR_PER_DAY: "10000",
};
const CHANGED = [
  "CONFIDENTIAL_BASE_URL",
  "CONFIDENTIAL_MAX_REQUEST_BYTES",
  "CONFIDENTIAL_TIMEOUT_MS",
  "CONFIDENTIAL_IDLE_TIMEOUT_MS",
  "CONFIDENTIAL_STREAM_TIMEOUT_MS",
  "CONFIDENTIAL_API_KEY_PRO",
  "QUOTA_FREE_PER_DAY",
  ...Object.keys(ENV),
];

/** This file's settings plus `extra`; whatever an earlier test set is undone. */
function configure(extra: Record<string, string> = {}) {
  for (const k of CHANGED) delete process.env[k];
  Object.assign(process.env, ENV, { CONFIDENTIAL_BASE_URL: enclave.origin }, extra);
  resetConfigForTests();
}

/** A fresh visitor address, so quotas and refusals of one test do not touch another's. */
const peer = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
let peerSeq = 0;
// Each in a /64 of its own: IPv6 clients are counted by their /64 (lib/server/client-address.ts clientKey).
const uniquePeer = () => `2001:db8:${(++peerSeq).toString(16)}:${randomBytes(2).toString("hex")}::1`;

interface SendInit {
  url?: string;
  headers?: Record<string, string>;
  body?: Buffer | ReadableStream<Uint8Array> | null;
  signal?: AbortSignal;
  model?: string | null;
  key?: string | null;
  address?: string;
}

function send(init: SendInit = {}): Promise<Response> {
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
function allBytes(repeat = 64): Buffer {
  const out = Buffer.alloc(256 * repeat);
  for (let i = 0; i < out.length; i++) out[i] = (i * 167 + (i >> 8)) & 0xff;
  return out;
}

function streamOf(chunks: Buffer[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(new Uint8Array(chunks[i++]!));
      else controller.close();
    },
  });
}

async function grantPro(userId: string) {
  await t.db.subscription.create({ data: { userId, status: "active", source: "manual" } });
}

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

describe("the relay forwards ciphertext byte for byte", () => {
  it("a binary body with every byte value reaches the enclave unchanged, and its binary answer comes back unchanged", async () => {
    const body = allBytes();
    const answer = [allBytes(3), Buffer.from([0, 0, 0, 0]), randomBytes(70_000)];
    enclave.answer = () => defaultAnswer(answer);
    const res = await send({ body });
    expect(res.status).toBe(200);
    const received = Buffer.from(await res.arrayBuffer());
    expect(received.equals(Buffer.concat(answer))).toBe(true);
    expect(enclave.requests).toHaveLength(1);
    const got = enclave.requests[0]!;
    expect(got.complete).toBe(true);
    expect(got.body.equals(body)).toBe(true);
    expect(res.headers.get("ehbp-response-nonce")).toBe(NONCE);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
  });

  it("a streamed request body (no Content-Length) is forwarded as it arrives, chunk boundaries aside", async () => {
    const chunks = [allBytes(1), randomBytes(100_000), Buffer.from([0xff]), allBytes(2)];
    const res = await send({ body: streamOf(chunks) });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(enclave.requests[0]!.body.equals(Buffer.concat(chunks))).toBe(true);
  });

  it("EHBP's 422 key-configuration mismatch keeps its status and problem type, in a body of the relay's own (docs/issues.md #43)", async () => {
    const problem = Buffer.from('{"type":"urn:ietf:params:ehbp:error:key-config","title":"stale key from upstream"}');
    enclave.answer = () => ({ status: 422, headers: { "Content-Type": "application/problem+json" }, chunks: [problem] });
    const res = await send();
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res.json()) as { type: string; error: string };
    expect(body.type).toBe("urn:ietf:params:ehbp:error:key-config");
    expect(body.error).toEqual(expect.any(String));
    expect(JSON.stringify(body)).not.toContain("from upstream");
  });
});

describe("headers", () => {
  it("only allow-listed request headers reach the enclave, with the relay's API key and usage request added", async () => {
    const res = await send({
      headers: {
        "X-Evil": "1",
        "X-Forwarded-For": "203.0.113.9",
        "X-Forwarded-Host": "attacker.example",
        Forwarded: "host=attacker.example",
        Referer: "https://hush.example/chat/123",
        "User-Agent": "Mozilla/5.0 canary-agent",
        "X-Tinfoil-Enclave-Url": "https://attacker.example",
        "Accept-Language": "de",
      },
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const got = enclave.requests[0]!;
    expect(got.method).toBe("POST");
    expect(Object.keys(got.headers).sort()).toEqual(
      ["accept", "authorization", "connection", "content-type", "ehbp-encapsulated-key", "host", "transfer-encoding", "x-tinfoil-request-usage-metrics"].sort(),
    );
    expect(got.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(got.headers["ehbp-encapsulated-key"]).toBe(KEY);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers.accept).toBe("text/event-stream");
    expect(got.headers["x-tinfoil-request-usage-metrics"]).toBe("true");
    expect(got.headers.host).toBe(`127.0.0.1:${enclave.port}`);
  });

  it("a signed-in user's cookie and the user's own Authorization never reach the enclave", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const res = await send({ headers: { cookie } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const got = enclave.requests[0]!;
    expect(got.headers.cookie).toBeUndefined();
    expect(got.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("with a key per model, each turn carries the key of the model its plan allowed", async () => {
    configure({ CONFIDENTIAL_API_KEY_PRO: "sk-pro-only" });
    const pro = await createTestUser();
    await grantPro(pro.id);
    const cookie = await sessionCookieFor(pro.id);
    for (const model of [PRO, BASIC]) {
      const res = await send({ model, headers: { cookie } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    expect(enclave.requests.map((r) => r.headers.authorization)).toEqual(["Bearer sk-pro-only", `Bearer ${API_KEY}`]);
  });

  it("only allow-listed response headers reach the client", async () => {
    const res = await send();
    await res.arrayBuffer();
    expect(res.headers.get("x-upstream-secret")).toBeNull();
    expect(res.headers.get("trailer")).toBeNull();
    expect(res.headers.get("ehbp-response-nonce")).toBe(NONCE);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("without Ehbp-Encapsulated-Key (or with a malformed one) the relay answers 400 and sends nothing", async () => {
    for (const key of [null, "", "zz".repeat(32), "0f".repeat(31)]) {
      const res = await send({ key });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/Ehbp-Encapsulated-Key/);
    }
    expect(enclave.requests).toHaveLength(0);
  });
});

describe("the client cannot change the target", () => {
  const cases: [string, SendInit][] = [
    ["a Host header", { headers: { Host: `127.0.0.1:${0}` } }],
    ["an absolute URL of another server", { url: "" }],
    ["a ../ path", { url: "http://localhost/api/confidential/chat/../../../v1/models?x=../../admin" }],
    ["X-Forwarded-Host and X-Forwarded-Proto", { headers: { "X-Forwarded-Host": "", "X-Forwarded-Proto": "http" } }],
  ];
  for (const [name, init] of cases) {
    it(`${name}: still only POST /v1/chat/completions on the configured origin`, async () => {
      const decoyHost = `127.0.0.1:${decoy.port}`;
      const patched: SendInit = {
        ...init,
        url: init.url === "" ? `${decoy.origin}/v1/chat/completions` : init.url,
        headers: Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k, v === "" || v === "127.0.0.1:0" ? decoyHost : v])),
      };
      const res = await send(patched);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      expect(decoy.requests).toHaveLength(0);
      expect(enclave.requests).toHaveLength(1);
      expect(enclave.requests[0]!.url).toBe("/v1/chat/completions");
      expect(enclave.requests[0]!.headers.host).toBe(`127.0.0.1:${enclave.port}`);
    });
  }
});

describe("plans and models", () => {
  it("a visitor asking for the Pro model gets 403 and nothing is sent", async () => {
    const res = await send({ model: PRO });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe("The Pro model needs a Pro plan.");
    expect(enclave.requests).toHaveLength(0);
  });

  it("a Free user asking for the Pro model gets 403; a Pro user gets the answer", async () => {
    const free = await createTestUser();
    const denied = await send({ model: PRO, headers: { cookie: await sessionCookieFor(free.id) } });
    expect(denied.status).toBe(403);
    expect(enclave.requests).toHaveLength(0);

    const pro = await createTestUser();
    await grantPro(pro.id);
    const allowed = await send({ model: PRO, headers: { cookie: await sessionCookieFor(pro.id) } });
    expect(allowed.status).toBe(200);
    await allowed.arrayBuffer();
    expect(enclave.requests).toHaveLength(1);
  });

  it("a missing, unknown or not-confidential model code answers 400", async () => {
    for (const model of [null, "gpt-4o", "llama3-8b-8192 "]) {
      const res = await send({ model: model === "llama3-8b-8192 " ? "../llama3-8b-8192" : model });
      expect(res.status).toBe(400);
    }
    configure({ CONFIDENTIAL_MODELS: BASIC });
    const res = await send({ model: PRO, headers: { cookie: await sessionCookieFor((await createTestUser()).id) } });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/not served confidentially/);
    expect(enclave.requests).toHaveLength(0);
  });

  it("the plaintext chat routes refuse a confidential model (409), uncounted; a model not listed is still served there", async () => {
    configure({ QUOTA_VISITOR_PER_DAY: "1", QUOTA_FREE_PER_DAY: "1" });
    const address = uniquePeer();
    const body = JSON.stringify({ messages: [{ role: "user", content: "in clear?" }], model: BASIC, file: null, chat_id: null, save_chat: false });
    const plain = (route: typeof visitorChat, headers: Record<string, string> = {}) =>
      route(new Request(`${getConfig().APP_URL}/api/ns/chat`, { method: "POST", headers: fromPeer(address, { "Content-Type": "application/json", ...sameOrigin(), ...headers }), body }));
    for (let i = 0; i < 2; i++) {
      const refused = await plain(visitorChat);
      expect(refused.status).toBe(409);
      expect((await refused.json()).error).toMatch(/only accepts messages encrypted in your browser/);
    }
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const refusedUser = await plain(userChat, { cookie });
    expect(refusedUser.status).toBe(409);
    // Neither refusal was counted: the one turn of each quota still goes through the relay.
    const relayed = await send({ address });
    expect(relayed.status).toBe(200);
    await relayed.arrayBuffer();
    const relayedUser = await send({ headers: { cookie } });
    expect(relayedUser.status).toBe(200);
    await relayedUser.arrayBuffer();

    configure({ CONFIDENTIAL_MODELS: PRO });
    const standard = await plain(visitorChat);
    expect(standard.status).toBe(200);
  });

  it("a stale session cookie answers 401 and a cross-site request 403, before anything is sent", async () => {
    const stale = await send({ headers: { cookie: `${sessionCookieName()}=not-a-live-session` } });
    expect(stale.status).toBe(401);
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const cross = await send({ headers: { cookie, Origin: "https://attacker.example" } });
    expect(cross.status).toBe(403);
    await t.db.user.update({ where: { id: user.id }, data: { deletedAt: new Date() } });
    const deleted = await send({ headers: { cookie } });
    expect(deleted.status).toBe(403);
    expect((await deleted.json()).error).toBe("This account has been deleted.");
    expect(enclave.requests).toHaveLength(0);
  });
});

describe("quota", () => {
  it("the visitor's daily quota runs out like on /api/ns/chat: 429, counted once per relayed turn, refusals not counted", async () => {
    configure({ QUOTA_VISITOR_PER_DAY: "2" });
    const address = uniquePeer();
    // Refused before counting: no key, Pro model.
    expect((await send({ address, key: null })).status).toBe(400);
    expect((await send({ address, model: PRO })).status).toBe(403);
    for (let i = 0; i < 2; i++) {
      const res = await send({ address });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const over = await send({ address });
    expect(over.status).toBe(429);
    expect((await over.json()).error).toBe("You've reached today's message limit.");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(enclave.requests).toHaveLength(2);
    // Another visitor still has its own allowance.
    const other = await send({ address: uniquePeer() });
    expect(other.status).toBe(200);
    await other.arrayBuffer();
  });

  it("a Free user's daily quota runs out: 429", async () => {
    configure({ QUOTA_FREE_PER_DAY: "1" });
    const cookie = await sessionCookieFor((await createTestUser()).id);
    const first = await send({ headers: { cookie } });
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    expect((await send({ headers: { cookie } })).status).toBe(429);
    expect(enclave.requests).toHaveLength(1);
  });
});

describe("limits and failures", () => {
  it("a body over CONFIDENTIAL_MAX_REQUEST_BYTES answers 413 JSON, counted while streaming; the enclave's request is cut off", async () => {
    configure({ CONFIDENTIAL_MAX_REQUEST_BYTES: "4096" });
    const res = await send({ body: streamOf([randomBytes(3000), randomBytes(3000), randomBytes(3000)]) });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/too large/);
    await Promise.all(enclave.requests.map((r) => r.closed));
    for (const r of enclave.requests) expect(r.complete).toBe(false);

    const declared = await send({ body: randomBytes(5000) });
    expect(declared.status).toBe(413);
  });

  it("an enclave that is down answers 502 JSON", async () => {
    const closed = await startFakeEnclave();
    const origin = closed.origin;
    await closed.close();
    configure({ CONFIDENTIAL_BASE_URL: origin });
    const res = await send();
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect((await res.json()).error).toMatch(/could not be reached/);
  });

  it("an enclave that does not answer in time answers 504 JSON", async () => {
    configure({ CONFIDENTIAL_TIMEOUT_MS: "300" });
    enclave.answer = () => ({ ...defaultAnswer(), delayMs: 3000 });
    const started = Date.now();
    const res = await send();
    expect(res.status).toBe(504);
    expect((await res.json()).error).toMatch(/did not answer in time/);
    expect(Date.now() - started).toBeLessThan(2500);
    await enclave.requests[0]!.closed;
  });

  it("an enclave refusing the relay's key (401) becomes 502, an enclave rate limit (429) 503: never Hush's own sign-in or quota answers", async () => {
    enclave.answer = () => ({ status: 401, headers: { "Content-Type": "application/json" }, chunks: [Buffer.from('{"error":"bad key"}')] });
    expect((await send()).status).toBe(502);
    enclave.answer = () => ({ status: 429, headers: { "Retry-After": "7" }, chunks: [] });
    const busy = await send();
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("7");
  });

  it("any other non-2xx of the enclave (500 HTML, 302, 404, 400) is a 502 JSON `{ error }`, without its body or Location (docs/issues.md #43, finding 4)", async () => {
    const cases: UpstreamAnswer[] = [
      { status: 500, headers: { "Content-Type": "text/html" }, chunks: [Buffer.from("<html>upstream stack trace</html>")] },
      { status: 302, headers: { Location: "https://elsewhere.example/steal", "Content-Type": "text/html" }, chunks: [Buffer.from("moved upstream")] },
      { status: 404, headers: { "Content-Type": "text/plain" }, chunks: [Buffer.from("upstream not found")] },
      { status: 400, headers: { "Content-Type": "application/json" }, chunks: [Buffer.from('{"error":"upstream says no"}')] },
    ];
    for (const answer of cases) {
      enclave.answer = () => answer;
      const res = await send();
      expect(res.status, String(answer.status)).toBe(502);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("ehbp-response-nonce")).toBeNull();
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ error: "The secure enclave answered with an error. Please try again in a moment." });
      expect(text).not.toMatch(/upstream|elsewhere/);
    }
  });

  it("a stream that falls silent is cut after CONFIDENTIAL_IDLE_TIMEOUT_MS, as a dropped connection; the enclave's connection is closed", async () => {
    configure({ CONFIDENTIAL_IDLE_TIMEOUT_MS: "300" });
    enclave.answer = () => ({ ...defaultAnswer([Buffer.from("first")]), hang: true });
    const res = await send();
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect(Buffer.from((await reader.read()).value!).toString()).toBe("first");
    const started = Date.now();
    await expect(reader.read()).rejects.toBeDefined();
    expect(Date.now() - started).toBeLessThan(2500);
    await enclave.requests[0]!.closed;
  });

  it("a stream that keeps trickling is cut after CONFIDENTIAL_STREAM_TIMEOUT_MS in all", async () => {
    configure({ CONFIDENTIAL_IDLE_TIMEOUT_MS: "5000", CONFIDENTIAL_STREAM_TIMEOUT_MS: "400" });
    enclave.answer = () => ({ ...defaultAnswer(Array.from({ length: 2000 }, () => Buffer.from("."))) });
    const started = Date.now();
    const res = await send();
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let received = 0;
    const failure = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return null;
        received += value.byteLength;
      }
    })().catch((error: unknown) => error);
    expect(failure).not.toBeNull();
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(2000);
    expect(Date.now() - started).toBeLessThan(3000);
    await enclave.requests[0]!.closed;
  });

  it("a client that goes away mid-answer closes the enclave's connection", async () => {
    enclave.answer = () => ({ ...defaultAnswer([Buffer.from("first")]), hang: true });
    const controller = new AbortController();
    const res = await send({ signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe("first");
    controller.abort();
    await reader.cancel().catch(() => undefined);
    await expect(Promise.race([enclave.requests[0]!.closed.then(() => "closed"), new Promise((r) => setTimeout(() => r("open"), 3000))])).resolves.toBe("closed");
  });

  it("a client that goes away before the answer starts closes the enclave's connection", async () => {
    enclave.answer = () => ({ ...defaultAnswer(), delayMs: 5000 });
    const controller = new AbortController();
    const pending = send({ signal: controller.signal });
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    await pending;
    await expect(Promise.race([enclave.requests[0]!.closed.then(() => "closed"), new Promise((r) => setTimeout(() => r("open"), 3000))])).resolves.toBe("closed");
  });
});

describe("usage and the model the enclave reports", () => {
  it("records the reported tokens by user kind, in the log without any content", async () => {
    const logs = captureLogsForTests();
    try {
      const before = usageTotals().visitor.total;
      const canary = Buffer.from("CANARY-7d1f body bytes");
      const res = await send({ body: canary });
      await res.arrayBuffer();
      // The trailer is read when the answer ends.
      await new Promise((r) => setTimeout(r, 50));
      expect(usageTotals().visitor.total).toBe(before + 18);
      const record = logs.records().find((r) => r.msg === "confidential usage");
      expect(record).toMatchObject({ kind: "visitor", model: BASIC, tokens: { prompt: 11, completion: 7, total: 18 } });
      expect(logs.lines.join("\n")).not.toContain("CANARY");
      expect(logs.lines.join("\n")).not.toContain(API_KEY);
    } finally {
      logs.restore();
    }
  });

  it("a usage report naming the allowed model changes nothing", async () => {
    enclave.answer = () => ({ ...defaultAnswer(), trailers: { "X-Tinfoil-Usage-Metrics": "prompt=1,completion=2,total=3,model=enclave-basic" } });
    const address = uniquePeer();
    for (let i = 0; i < 2; i++) {
      const res = await send({ address });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
  });

  it("a usage report naming another model refuses that client's further confidential turns (403) and logs a security event", async () => {
    const logs = captureLogsForTests();
    try {
      enclave.answer = () => ({ ...defaultAnswer(), trailers: { "X-Tinfoil-Usage-Metrics": "prompt=1,completion=2,total=3,model=enclave-pro" } });
      const address = uniquePeer();
      const served = await send({ address });
      expect(served.status).toBe(200);
      await served.arrayBuffer();
      await new Promise((r) => setTimeout(r, 50));
      const refused = await send({ address });
      expect(refused.status).toBe(403);
      expect((await refused.json()).error).toBe(MISMATCH_MESSAGE);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(enclave.requests).toHaveLength(1);
      const event = logs.records().find((r) => r.event === "confidential.model_mismatch");
      expect(event).toMatchObject({ component: "security", kind: "visitor", allowed: BASIC });
      // Another client is not affected.
      const other = await send({ address: uniquePeer() });
      expect(other.status).toBe(200);
      await other.arrayBuffer();
    } finally {
      logs.restore();
    }
  });

  it("the refusal follows a signed-in user, whatever the address", async () => {
    enclave.answer = () => ({ ...defaultAnswer(), headers: { ...defaultAnswer().headers, "X-Tinfoil-Usage-Metrics": "prompt=1,completion=1,total=2,model=other-model" }, trailers: undefined });
    const cookie = await sessionCookieFor((await createTestUser()).id);
    const served = await send({ headers: { cookie } });
    expect(served.status).toBe(200);
    await served.arrayBuffer();
    await new Promise((r) => setTimeout(r, 50));
    const refused = await send({ headers: { cookie }, address: peer() });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe(MISMATCH_MESSAGE);
  });
});
