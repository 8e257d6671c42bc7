import { afterEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/ns/chat/route";
import { DRAINING_MESSAGE, shutdown, SHUTDOWN_MESSAGE, turnsInFlight } from "@/lib/server/lifecycle";
import { resetLifecycleForTests } from "../helpers/process-state";
import { setUpFakeLlmAndTestDb } from "../helpers/chat-route-setup";

/**
 * Graceful shutdown (lib/server/lifecycle.ts) around the real chat route and the real openai SDK talking to the
 * fake LLM server: turns in flight finish before the exit, new ones are refused, and past the grace
 * period a turn ends with a clean 503 `error` event. The process-level test (SIGTERM to a production
 * build) is scripts/deploy-test.ts.
 */
setUpFakeLlmAndTestDb();
afterEach(() => resetLifecycleForTests());

const send = (content: string) =>
  POST(
    new Request("http://localhost/api/ns/chat", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({ messages: [{ role: "user", content }], model: "llama3-8b-8192", file: null, chat_id: null, save_chat: false }),
    }),
  );

function events(text: string) {
  return text
    .trim()
    .split("\n\n")
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null") }));
}

describe("graceful shutdown", () => {
  it("lets a stream in flight finish, refuses new turns, then closes resources and exits 0", async () => {
    const res = await send("Tell me slowly [[fake:slow]]");
    expect(res.status).toBe(200);
    const body = res.text();
    expect(turnsInFlight()).toBe(1);
    const order: string[] = [];
    const done = shutdown("SIGTERM", [], {
      graceMs: 20_000,
      closeResources: async () => void order.push(`close with ${turnsInFlight()} turn(s) in flight`),
      exit: (code) => void order.push(`exit ${code}`),
      log: () => undefined,
    });
    const refused = await send("Hello");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({ error: DRAINING_MESSAGE });

    expect(order).toEqual([]); // still waiting for the stream
    const got = events(await body);
    await done;
    expect(got.at(-1)!.event).toBe("done");
    expect(got.filter((e) => e.event === "delta")).toHaveLength(20);
    expect(order).toEqual(["close with 0 turn(s) in flight", "exit 0"]);
  });

  it("past the grace period ends the stream with a 503 error event and still exits 0", async () => {
    const res = await send("Tell me slowly [[fake:slow]]");
    const body = res.text();
    const exits: number[] = [];
    await shutdown("SIGTERM", [], { graceMs: 700, closeResources: async () => undefined, exit: (c) => void exits.push(c), log: () => undefined });
    const got = events(await body);
    expect(got.at(-1)).toEqual({ event: "error", data: { error: SHUTDOWN_MESSAGE, status: 503 } });
    expect(got.some((e) => e.event === "done")).toBe(false);
    expect(exits).toEqual([0]);
    expect(turnsInFlight()).toBe(0);
  });

  it("calls the handlers registered before it (Next's cleanup) and holds back their exit", async () => {
    const seen: string[] = [];
    const realExit = process.exit;
    const exits: number[] = [];
    await shutdown(
      "SIGTERM",
      [
        (signal) => {
          seen.push(signal);
          process.exit(143); // what Next's cleanup does once its server closed
        },
      ],
      { graceMs: 1_000, closeResources: async () => void seen.push("close"), exit: (c) => void exits.push(c), log: () => undefined },
    );
    expect(seen).toEqual(["SIGTERM", "close"]);
    expect(exits).toEqual([0]);
    expect(process.exit).toBe(realExit);
  });
});
