import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/ns/chat/route";
import { pushTo, webPushedResponse, type Producer, type PushSink } from "@/lib/server/api/response-sink";
import { turnsInFlight } from "@/lib/server/lifecycle";
import { resetLifecycleForTests } from "../helpers/process-state";
import { setUpFakeLlmAndTestDb } from "../helpers/chat-route-setup";

/**
 * Answers written by a producer (lib/server/api/response-sink.ts, docs/issues.md #24; a handler hands one to
 * its context's `stream`, lib/server/api/route.ts): read as a Web body (Next),
 * one chunk per read; run straight into a node:http response (server.mjs's hot path); and a body never
 * read still runs its producer to the end, so a chat turn lets go of its model call and its place in
 * lib/server/lifecycle.ts.
 */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("an answer written by a producer", () => {
  it("is read as a Web body, one chunk per read: the producer waits for the reader (back-pressure)", async () => {
    const steps: string[] = [];
    const response = webPushedResponse(
      async (sink) => {
        for (const part of ["a", "b", "c"]) {
          steps.push(`write ${part}`);
          if (!sink.write(part)) await sink.ready();
        }
        sink.end();
      },
      { headers: { "Content-Type": "text/plain" } },
    );
    expect(steps).toEqual([]); // nothing runs before a read
    const reader = response.body!.getReader();
    const decode = (v: Uint8Array | undefined) => new TextDecoder().decode(v);
    expect(decode((await reader.read()).value)).toBe("a");
    await tick();
    expect(steps).toEqual(["write a"]); // waits until the next read
    expect(decode((await reader.read()).value)).toBe("b");
    expect(decode((await reader.read()).value)).toBe("c");
    expect((await reader.read()).done).toBe(true);
    expect(response.headers.get("content-type")).toBe("text/plain");
  });

  it("runs the producer with `gone` aborted when the body is cancelled before any read", async () => {
    let seen: PushSink | null = null;
    const response = webPushedResponse(
      async (sink) => {
        seen = sink;
        sink.end();
      },
      {},
    );
    await response.body!.cancel();
    expect(seen).not.toBeNull();
    expect(seen!.gone.aborted).toBe(true);
  });

  it("runs straight into a node:http response on the hot path (pushTo)", async () => {
    const produce: Producer = async (sink) => {
      sink.write("first ");
      if (!sink.write("second")) await sink.ready();
      sink.end();
    };
    const server = http.createServer((_req, res) => {
      res.writeHead(200);
      void pushTo(produce, res, new AbortController().signal);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("first second");
    await new Promise((resolve) => server.close(resolve));
  });
});

describe("a chat turn whose answer is never read", () => {
  const peers = setUpFakeLlmAndTestDb();
  afterEach(() => resetLifecycleForTests());

  it("ends the turn and closes the model's stream when its body is cancelled unread", async () => {
    const response = await POST(
      new Request("http://localhost/api/ns/chat", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify({ messages: [{ role: "user", content: "Tell me slowly [[fake:slow]]" }], model: "llama3-8b-8192", file: null, chat_id: null, save_chat: false }),
      }),
    );
    expect(response.status).toBe(200);
    expect(turnsInFlight()).toBe(1);
    await response.body!.cancel();
    await expect.poll(() => turnsInFlight(), { timeout: 2000 }).toBe(0);
    // The slow answer takes 6 s; the model's connection closes long before.
    await expect.poll(() => peers.llm.requests.at(-1)?.closedEarly, { timeout: 2000 }).toBe(true);
  });
});
