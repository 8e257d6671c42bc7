import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpFetch } from "@/lib/server/llm/http-fetch";
import { sseChunks } from "@/lib/server/llm/openai-protocol";

/** docs/issues.md #56: Stop in the middle of a slow answer leaves no stream without an error handler. */
const errors = {
  APIError: class extends Error {},
  APIConnectionError: class extends Error {},
} as unknown as Parameters<typeof sseChunks>[2];

let server: http.Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A model server that sends one chunk every 50 ms and never ends by itself. */
async function slowModel(): Promise<string> {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    let n = 0;
    const timer = setInterval(() => res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: `part ${n++} ` } }] })}\n\n`), 50);
    res.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("stopping a streamed answer", () => {
  it("aborts mid-stream without an uncaught exception", async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", onUncaught);
    try {
      const origin = await slowModel();
      const controller = new AbortController();
      const response = await createHttpFetch()(`${origin}/v1/chat/completions`, { method: "POST", body: "{}", signal: controller.signal });
      let batches = 0;
      for await (const batch of sseChunks(response, controller.signal, errors)) {
        expect(batch.length).toBeGreaterThan(0);
        if (++batches === 2) controller.abort();
      }
      expect(batches).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", onUncaught);
    }
  });
});
