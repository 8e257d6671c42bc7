import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { MISMATCH_MESSAGE } from "@/lib/server/confidential/relay";
import { usageTotals } from "@/lib/server/confidential/usage";
import { captureLogsForTests } from "@/lib/server/log";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { defaultAnswer, startFakeEnclave, type UpstreamAnswer } from "./upstream";
import { enclave, BASIC, PRO, API_KEY, configure, peer, uniquePeer, send, streamOf, setUpRelayHarness } from "./relay-harness";

/** POST /api/confidential/chat (./relay-harness.ts): quota, limits and failures, usage and the model the enclave reports. */
setUpRelayHarness();

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
    enclave.answer = () => ({ ...defaultAnswer(), delayMs: 30_000 });
    const started = Date.now();
    const res = await send();
    expect(res.status).toBe(504);
    expect((await res.json()).error).toMatch(/did not answer in time/);
    // Long before the enclave's answer, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(20_000);
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
    // The enclave never speaks again: only the idle limit ends the read.
    expect(Date.now() - started).toBeLessThan(20_000);
    await enclave.requests[0]!.closed;
  });

  it("a stream that keeps trickling is cut after CONFIDENTIAL_STREAM_TIMEOUT_MS in all", async () => {
    configure({ CONFIDENTIAL_IDLE_TIMEOUT_MS: "5000", CONFIDENTIAL_STREAM_TIMEOUT_MS: "400" });
    enclave.answer = () => ({ ...defaultAnswer(Array.from({ length: 2000 }, () => Buffer.from("."))) });
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
    // Cut before the enclave's 2,000 bytes (10 s of trickle) were all through.
    expect(received).toBeLessThan(2000);
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
