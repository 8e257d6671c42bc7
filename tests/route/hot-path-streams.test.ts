import { describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { getConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { blockKey } from "@/lib/server/rate-limit";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { t, llm, enclave, base, BASIC, KEY, confidential, statements, ask, post, within, setUpHotPathHarness, resetStatements } from "./hot-path-harness";

/** server.mjs's hot path over HTTP (./hot-path-harness.ts): a client going away, the confidential relay, back-pressure. */
setUpHotPathHarness();

describe("the hot path over HTTP: streams, relays and back-pressure", () => {
  it("stops the model call as soon as the client goes away mid-stream", async () => {
    const client = new AbortController();
    const res = await post("/api/ns/chat", ask("Take your time [[fake:slow]]"), { Accept: "text/event-stream" }, client.signal);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("event: delta");
    client.abort();
    // The slow answer has 20 pieces 300 ms apart (6 s): the model's request is closed long before its end.
    await expect.poll(() => llm.requests.at(-1)?.closedEarly, { timeout: 2000, interval: 10 }).toBe(true);
  });

  it("relays a confidential turn byte for byte and closes the enclave request when the client goes away", async () => {
    confidential(enclave.origin);
    enclave.answer = () => ({
      status: 200,
      headers: { "Content-Type": "text/event-stream", "Ehbp-Response-Nonce": "ab".repeat(32) },
      chunks: [Buffer.from([0, 1, 2, 255])],
      hang: true,
    });
    const client = new AbortController();
    const res = await post("/api/confidential/chat", Buffer.from("sealed bytes"), { "X-Hush-Model": BASIC, "Ehbp-Encapsulated-Key": KEY, "Content-Type": "application/octet-stream" }, client.signal);
    expect(res.status).toBe(200);
    expect(res.headers.get("ehbp-response-nonce")).toBe("ab".repeat(32));
    const reader = res.body!.getReader();
    expect([...(await reader.read()).value!]).toEqual([0, 1, 2, 255]);
    expect(enclave.requests[0]!.body.toString()).toBe("sealed bytes");
    client.abort();
    expect(await within(enclave.requests[0]!.closed, 1000)).toBe(true);
  });

  it("relays a signed-in turn with one database statement; a blocked client's refusal gives its count back", async () => {
    confidential(enclave.origin);
    const user = await createTestUser();
    const headers = { Cookie: await sessionCookieFor(user.id), "X-Hush-Model": BASIC, "Ehbp-Encapsulated-Key": KEY, "Content-Type": "application/octet-stream" };
    const count = async () => (await t.db.quotaCounter.findFirst({ where: { subject: `u:${user.id}` } }))?.count ?? 0;
    const warm = await post("/api/confidential/chat", Buffer.from("warm"), headers);
    expect(warm.status).toBe(200);
    await warm.arrayBuffer();
    await resetStatements();
    const res = await post("/api/confidential/chat", Buffer.from("sealed"), headers);
    expect(res.status).toBe(200);
    expect(statements).toBe(1);
    await res.arrayBuffer();
    expect(await count()).toBe(2);
    // As after a usage report naming another model (lib/server/confidential/relay.ts checkServedModel).
    await blockKey("confidential-model-mismatch", `u:${user.id}`, 60);
    const refused = await post("/api/confidential/chat", Buffer.from("sealed"), headers);
    expect(refused.status).toBe(403);
    expect(await count()).toBe(2);
    expect(enclave.requests).toHaveLength(2);
  });

  it("holds the upstream back while the client does not read (back-pressure), then delivers every byte", async () => {
    const CHUNK = 64 * 1024;
    const TOTAL = 64 * 1024 * 1024;
    let written = 0;
    const upstream = http.createServer((req, res) => {
      req.resume();
      req.on("end", async () => {
        res.writeHead(200, { "Content-Type": "application/octet-stream", "Ehbp-Response-Nonce": "ab".repeat(32) });
        const chunk = Buffer.alloc(CHUNK, 7);
        while (written < TOTAL && !res.destroyed) {
          written += CHUNK;
          if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
        }
        res.end();
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    confidential(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    try {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request(`${base}/api/confidential/chat`, {
          method: "POST",
          headers: { "X-Hush-Model": BASIC, "Ehbp-Encapsulated-Key": KEY, "Content-Type": "application/octet-stream", Origin: new URL(getConfig().APP_URL).origin },
        });
        req.once("response", resolve);
        req.once("error", reject);
        req.end("sealed");
      });
      expect(res.statusCode).toBe(200);
      res.pause();
      // The writes stop once the socket buffers are full (Linux grows a fast-read hop's up to tcp_rmem's
      // maximum, 32 MiB here), well short of the whole answer, and stay stopped.
      let held = -1;
      for (const deadline = Date.now() + 15_000; written !== held && Date.now() < deadline; ) {
        held = written;
        await new Promise((r) => setTimeout(r, 400));
      }
      expect(written).toBe(held);
      expect(held).toBeLessThan(TOTAL * 0.75);
      let received = 0;
      res.on("data", (c: Buffer) => (received += c.length));
      res.resume();
      await new Promise((r) => res.once("end", r));
      expect(received).toBe(TOTAL);
    } finally {
      upstream.closeAllConnections();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });

  it("holds the model's stream back while the client does not read a chat turn (back-pressure), then delivers the whole answer", async () => {
    const PIECE = "x".repeat(2048);
    // 64 MiB of answer text: more than both hops' socket buffers can hold, which Linux grows up to
    // net.ipv4.tcp_rmem's maximum (32 MiB here) on the hop the server reads fast.
    const CHUNKS = 32 * 1024;
    const frame = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    let sent = 0;
    const model = http.createServer((req, res) => {
      req.resume();
      req.on("end", async () => {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        res.write(frame({ role: "assistant", content: "" }));
        const piece = frame({ content: PIECE });
        while (sent < CHUNKS && !res.destroyed) {
          sent++;
          if (!res.write(piece)) await new Promise((r) => res.once("drain", r));
        }
        res.end(frame({}, "stop") + "data: [DONE]\n\n");
      });
    });
    await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
    process.env.LLM_BASE_URL = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
    resetConfigForTests();
    try {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request(`${base}/api/ns/chat`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "text/event-stream", Origin: new URL(getConfig().APP_URL).origin },
        });
        req.once("response", resolve);
        req.once("error", reject);
        req.end(JSON.stringify(ask("Write a very long answer")));
      });
      expect(res.statusCode).toBe(200);
      res.pause();
      // Socket buffers on both hops fill (several MB on loopback), then the model is not read any further:
      // how much fits depends on the kernel and the load, so the test waits for the writes to stop, however
      // many got through, and checks they stay a bounded part of the answer.
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      let held = -1;
      for (const deadline = Date.now() + 15_000; sent !== held && Date.now() < deadline; ) {
        held = sent;
        await sleep(400);
      }
      expect(sent).toBe(held);
      expect(held).toBeLessThan(CHUNKS * 0.75);
      await sleep(500);
      expect(sent).toBe(held);
      let tail = "";
      let received = 0;
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        received += c.length;
        tail = (tail + c).slice(-200);
      });
      res.resume();
      await new Promise((r) => res.once("end", r));
      expect(sent).toBe(CHUNKS);
      // Every piece arrived twice: in the deltas, and in the `done` event's whole conversation.
      expect(received).toBeGreaterThan(2 * CHUNKS * PIECE.length);
      expect(tail).toMatch(/"chat_id":null.*\n\n$/s);
    } finally {
      process.env.LLM_BASE_URL = `${llm.url}/v1`;
      resetConfigForTests();
      model.closeAllConnections();
      await new Promise<void>((resolve) => model.close(() => resolve()));
    }
    // 64 MiB parsed and re-encoded: a few seconds on a quiet machine, far longer on a loaded one (not a timing test).
  }, 240_000);
});
