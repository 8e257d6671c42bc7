#!/usr/bin/env node
/**
 * A rung of bench/perf/ladder.ts (docs/issues.md #24): the least a proxy that turns the provider's stream into
 * Hush's own events costs. Like bench/perf/bare-proxy.mjs it reads the JSON body and calls the same fake
 * model over a keep-alive connection, but instead of piping the SSE it parses it (eventsource-parser, as
 * lib/server/llm/openai-protocol.ts does), `JSON.parse`s every chunk and writes `event: delta` events, the
 * pieces of one event-loop turn coalesced as lib/server/chat/respond.ts does, then `event: done`.
 * With --sdk the model is called through the openai SDK as it comes (its fetch and its Stream).
 *
 *   node bench/perf/translating-proxy.mjs --port 5953 --upstream http://127.0.0.1:5851 [--sdk]
 */
import http from "node:http";
import { createParser } from "eventsource-parser";
import OpenAI from "openai";
import { deltaEvents } from "./delta-events.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const port = Number(arg("port", 5953));
const base = arg("upstream", "http://127.0.0.1:5851");
const upstream = new URL("/v1/chat/completions", base);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const sdk = process.argv.includes("--sdk") ? new OpenAI({ apiKey: "bench", baseURL: `${base}/v1`, maxRetries: 0, logLevel: "off" }) : null;
function fail(res) {
  if (!res.headersSent) res.statusCode = 502;
  res.end();
}

const server = http.createServer((req, res) => {
  if (req.method === "GET") return res.end('{"ok":true}');
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const out = deltaEvents(res);
    if (sdk) {
      try {
        const stream = await sdk.chat.completions.create({ model: body.model, messages: body.messages, stream: true });
        for await (const chunk of stream) {
          const piece = chunk.choices[0]?.delta?.content;
          if (piece) out.delta(piece);
        }
        out.end();
      } catch {
        fail(res);
      }
      return;
    }
    const payload = JSON.stringify({ model: body.model, messages: body.messages, stream: true });
    const up = http.request(
      upstream,
      { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } },
      (upRes) => {
        const parser = createParser({
          onEvent(e) {
            if (e.data.startsWith("[DONE]")) return;
            const piece = JSON.parse(e.data).choices[0]?.delta?.content;
            if (piece) out.delta(piece);
          },
        });
        upRes.setEncoding("utf8");
        upRes.on("data", (text) => parser.feed(text));
        upRes.on("end", () => out.end());
      },
    );
    up.on("error", () => fail(res));
    up.end(payload);
  });
});
server.listen(port, "127.0.0.1", () => console.log(`translating proxy on ${port}${sdk ? " (openai SDK)" : ""}`));
