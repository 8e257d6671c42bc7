#!/usr/bin/env node
/**
 * A zero-delay OpenAI-compatible model for bench/perf (docs/issues.md #12): POST /v1/chat/completions streams
 * `--deltas` chunks ("Hello" then " tok"), a finish chunk, a usage chunk and [DONE], all in one go,
 * so every millisecond and CPU cycle measured downstream belongs to the server under test.
 * Keep-alive connections; nothing is recorded.
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

const server = http.createServer((req, res) => {
  if (req.method === "GET") return res.end('{"ok":true}');
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.write(first);
    // One write per chunk, as a real provider's tokens arrive: the server under test sees each.
    for (const p of parts) res.write(p);
    res.end(last);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, "127.0.0.1", () => console.log(`fake-llm listening on ${port}`));
