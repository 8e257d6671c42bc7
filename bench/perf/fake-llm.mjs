#!/usr/bin/env node
/**
 * A zero-delay OpenAI-compatible model for bench/perf (docs/issues.md #12): POST /v1/chat/completions streams
 * `--deltas` chunks ("Hello" then " tok"), a finish chunk, a usage chunk and [DONE], all in one go,
 * so every millisecond and CPU cycle measured downstream belongs to the server under test.
 * Keep-alive connections; nothing is recorded.
 *
 * A search turn (docs/issues.md #50): a request that offers `tools` and has no `role: "tool"` message yet gets a
 * streamed `web_search` tool call (`finish_reason: "tool_calls"`) instead of the answer; GET /search is a
 * zero-delay SearXNG JSON API (five fixed results), so the turn's three calls all land here.
 *
 *   node bench/perf/fake-llm.mjs --port 5851 [--deltas 64]
 */
import http from "node:http";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const port = Number(arg("port", 5851));
const deltas = Number(arg("deltas", 64));

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "bench", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const first = chunk({ role: "assistant", content: "" });
const parts = Array.from({ length: deltas }, (_, i) => chunk({ content: i === 0 ? "Hello" : " tok" }));
const last =
  chunk({}, "stop") +
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "bench", choices: [], usage: { prompt_tokens: 10, completion_tokens: deltas, total_tokens: 10 + deltas } })}\n\n` +
  "data: [DONE]\n\n";

const toolCall =
  chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_bench", type: "function", function: { name: "web_search", arguments: "" } }] }) +
  chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify({ queries: ["how fast can a private chat be"] }) } }] }) +
  chunk({}, "tool_calls") +
  "data: [DONE]\n\n";
const results = JSON.stringify({
  results: Array.from({ length: 5 }, (_, i) => ({ url: `https://example.com/${i + 1}`, title: `Result ${i + 1}`, content: `Snippet ${i + 1} about private chat speed.` })),
});

const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url?.startsWith("/search?")) {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(results);
  }
  if (req.method === "GET") return res.end('{"ok":true}');
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    // A plain string test keeps the plain turn's cost unchanged (no JSON parse).
    if (body.includes('"tools"') && !/"role":\s*"tool"/.test(body)) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      return res.end(toolCall);
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.write(first);
    // One write per chunk, as a real provider's tokens arrive: the server under test sees each.
    for (const p of parts) res.write(p);
    res.end(last);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, "127.0.0.1", () => console.log(`fake-llm listening on ${port}`));
