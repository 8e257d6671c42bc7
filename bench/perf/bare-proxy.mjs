#!/usr/bin/env node
/**
 * The reference of bench/perf (docs/issues.md #12): the least any chat backend costs. A bare node:http proxy of
 * the same fake model: reads the JSON body, forwards messages and model to the provider over a
 * keep-alive connection, and pipes the provider's SSE stream back. No validation, storage, encryption,
 * session or quota.
 *
 * With --bytes (docs/issues.md #24, the reference of the confidential relay): forwards each POST's body
 * bytes as they come to <upstream>/v1/chat/completions (an enclave) with only the EHBP key, Content-Type
 * and Accept headers, and pipes back the status, Content-Type, Ehbp-Response-Nonce and the body's bytes.
 *
 * With --store <postgres url> (docs/issues.md #24, a reference for the signed-in saved turn): POST /save also
 * stores the request body as it came (the browser's sealed turn) with one prepared INSERT, and answers
 * `{"last_updated": …}`: the least a backend that keeps a turn costs, with no session, parsing or checks.
 *
 * POST /search-chat (docs/issues.md #50, the reference of a search turn): the same three calls a search turn
 * makes, and nothing else: the model with the web-search tool offered (its streamed tool call read to the end),
 * the engine's JSON API with the model's first query (<upstream>/search), and the model again with the results as
 * a `role: "tool"` message, whose SSE stream is piped back.
 *
 *   node bench/perf/bare-proxy.mjs --port 5852 --upstream http://127.0.0.1:5851 [--bytes | --store <url>]
 */
import http from "node:http";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const port = Number(arg("port", 5852));
const upstream = new URL("/v1/chat/completions", arg("upstream", "http://127.0.0.1:5851"));
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const bytes = process.argv.includes("--bytes");
const store = arg("store", null);
const pool = store ? new (await import("pg")).default.Pool({ connectionString: store }) : null;
if (pool) await pool.query("CREATE TABLE IF NOT EXISTS bare_saved_turns (id bigserial PRIMARY KEY, body text NOT NULL, saved_at timestamptz NOT NULL DEFAULT now())");

/** --store: POST /save's body kept as one row. */
function save(req, res) {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    pool.query({ name: "bare_save", text: "INSERT INTO bare_saved_turns (body) VALUES ($1) RETURNING saved_at", values: [Buffer.concat(chunks).toString("utf8")] }).then(
      ({ rows }) => res.end(JSON.stringify({ last_updated: rows[0].saved_at.toISOString() })),
      () => {
        res.statusCode = 500;
        res.end();
      },
    );
  });
}

const pick = (headers, names) => Object.fromEntries(names.filter((n) => headers[n] !== undefined).map((n) => [n, headers[n]]));

/** --bytes: the request body streamed to the enclave unread, its answer streamed back. */
function forwardBytes(req, res) {
  const headers = pick(req.headers, ["ehbp-encapsulated-key", "content-type", "accept", "content-length"]);
  const up = http.request(upstream, { method: "POST", agent, headers }, (upRes) => {
    res.writeHead(upRes.statusCode ?? 502, pick(upRes.headers, ["content-type", "ehbp-response-nonce"]));
    upRes.pipe(res);
  });
  up.on("error", () => {
    res.statusCode = 502;
    res.end();
  });
  req.pipe(up);
}

const WEB_SEARCH_TOOL = {
  type: "function",
  function: { name: "web_search", description: "Search the web.", parameters: { type: "object", properties: { queries: { type: "array", items: { type: "string" } } }, required: ["queries"] } },
};

/** One POST to the model; resolves to its whole answer text. */
function modelText(out) {
  return new Promise((resolve, reject) => {
    const up = http.request(upstream, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(out) } }, (upRes) => {
      const parts = [];
      upRes.on("data", (c) => parts.push(c));
      upRes.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
      upRes.on("error", reject);
    });
    up.on("error", reject);
    up.end(out);
  });
}

/** GET the engine's JSON API; resolves to its body text. */
function engine(query) {
  return new Promise((resolve, reject) => {
    const url = new URL("/search", upstream);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "json");
    http.get(url, { agent }, (r) => {
      const parts = [];
      r.on("data", (c) => parts.push(c));
      r.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
      r.on("error", reject);
    }).on("error", reject);
  });
}

/** The search turn's three calls: model (tool call), engine, model (answer streamed back). */
async function searchChat(body, res) {
  const first = await modelText(JSON.stringify({ model: body.model, messages: body.messages, stream: true, tools: [WEB_SEARCH_TOOL] }));
  let args = "";
  for (const line of first.split("\n")) {
    if (!line.startsWith("data: {")) continue;
    for (const call of JSON.parse(line.slice(6)).choices?.[0]?.delta?.tool_calls ?? []) args += call.function?.arguments ?? "";
  }
  const query = JSON.parse(args).queries[0];
  const results = JSON.parse(await engine(query)).results;
  const messages = [
    ...body.messages,
    { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "web_search", arguments: args } }] },
    { role: "tool", tool_call_id: "call_1", content: results.map((r, i) => `[${i + 1}] ${r.title} ${r.url}\n${r.content}`).join("\n\n") },
  ];
  const out = JSON.stringify({ model: body.model, messages, stream: true, tools: [WEB_SEARCH_TOOL] });
  const up = http.request(upstream, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(out) } }, (upRes) => {
    res.writeHead(upRes.statusCode ?? 502, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
    upRes.pipe(res);
  });
  up.on("error", () => {
    res.statusCode = 502;
    res.end();
  });
  up.end(out);
}

const server = http.createServer((req, res) => {
  if (req.method === "GET") return res.end('{"ok":true}');
  if (bytes) return forwardBytes(req, res);
  if (req.url === "/search-chat") {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () =>
      searchChat(JSON.parse(Buffer.concat(chunks).toString("utf8")), res).catch(() => {
        res.statusCode = 502;
        res.end();
      }),
    );
    return;
  }
  if (pool && req.url === "/save") return save(req, res);
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const out = JSON.stringify({ model: body.model, messages: body.messages, stream: true });
    const up = http.request(
      upstream,
      { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(out) } },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
        upRes.pipe(res);
      },
    );
    up.on("error", () => {
      res.statusCode = 502;
      res.end();
    });
    up.end(out);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, "127.0.0.1", () => console.log(`bare-proxy listening on ${port}`));
