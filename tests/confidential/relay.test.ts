import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { POST as visitorChat } from "@/app/api/ns/chat/route";
import { POST as userChat } from "@/app/api/ns/chat_user/route";
import { sessionCookieName } from "@/lib/server/auth/cookies";
import { getConfig } from "@/lib/server/config";
import { createTestUser, sameOrigin, sessionCookieFor } from "../helpers/auth";
import { fromPeer } from "../helpers/peer";
import { defaultAnswer, NONCE } from "./upstream";
import { t, enclave, decoy, BASIC, PRO, API_KEY, KEY, configure, uniquePeer, SendInit, send, allBytes, streamOf, grantPro, setUpRelayHarness } from "./relay-harness";

/** POST /api/confidential/chat (./relay-harness.ts): bytes, headers, the fixed target, plans and models. */
setUpRelayHarness();

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

  it("the router's search opt-in counts as a declared search: forwarded while counted, refused past the quota (docs/issues.md #54)", async () => {
    configure({ SEARCH_PER_DAY_VISITOR: "3" });
    const address = uniquePeer();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await send({ address, headers: { "X-Tinfoil-Events": "web_search" } });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(enclave.requests.map((r) => r.headers["x-tinfoil-events"])).toEqual(["web_search", "web_search", "web_search"]);
    // Any other value is neither counted nor forwarded; without the opt-in the turn is answered, unsearched.
    const other = await send({ address, headers: { "X-Tinfoil-Events": "something_else" } });
    expect(other.status).toBe(200);
    await other.arrayBuffer();
    expect(enclave.requests.at(-1)!.headers["x-tinfoil-events"]).toBeUndefined();
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
