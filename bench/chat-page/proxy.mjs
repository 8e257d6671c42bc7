/**
 * The Node proxy bench/chat-page.mjs puts in front of each app: it answers the signed-in routes the page asks for
 * from fixtures.mjs (the chat user's SSE stream included) and passes everything else to the real app.
 */
import http from "node:http";
import { CHAT_ID, CHAT_JSON, HISTORY_JSON, TOKENS, VAULT_JSON } from "./fixtures.mjs";
import { DELTA_MS, TOKENS_PER_DELTA } from "./options.mjs";

/**
 * The turns the page saved (POST /api/ns/chat_save), to check each run appended its turn to the chat:
 * { chat_id, create, first_position, messages (their count) }.
 */
export const saves = [];

/** Start the proxy on 127.0.0.1:`port` in front of the app on `appPort`; resolves to its http.Server. */
export function startProxy(port, appPort) {
  const json = (res, body) => {
    res.writeHead(200, { "content-type": "application/json", "cache-control": "private, no-store" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  const drain = (req, then) => {
    const body = [];
    req.on("data", (c) => body.push(c));
    req.on("end", () => then(Buffer.concat(body).toString()));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/api/me") return json(res, { user: { email: "bench@hush.test" }, auth_sync: false });
    // The signed-in chat page's other reads (lib/shared/api/responses.ts): no projects, files or memories.
    if (url.pathname === "/api/projects" && req.method === "GET") return json(res, { projects: [], chats: [] });
    if (url.pathname === "/api/projects/files" && req.method === "GET") return json(res, { files: [], limit_bytes: 5_000_000, max_files: 50 });
    if (url.pathname === "/api/memory" && req.method === "GET") return json(res, { sealed: null, version: 0, updated_at: null });
    if (url.pathname === "/api/check_account_status") return json(res, { account_deleted: false });
    if (url.pathname === "/api/check_stripe_status") return json(res, { plan: "Free", status: "none" });
    if (url.pathname === "/api/vault" && req.method === "GET") return json(res, VAULT_JSON);
    if (url.pathname === "/api/vault/unlock" && req.method === "POST")
      return drain(req, (b) => json(res, { ok: true, method_id: JSON.parse(b).method_id ?? null }));
    if (url.pathname === "/api/ns/chat_history") return json(res, HISTORY_JSON);
    if (url.pathname === `/api/ns/chat_history/${CHAT_ID}`) return json(res, CHAT_JSON);
    if (url.pathname === "/api/ns/chat_save" && req.method === "POST")
      return drain(req, (b) => {
        const body = JSON.parse(b);
        saves.push({ chat_id: body.chat_id, create: body.create, first_position: body.first_position, messages: body.messages.length });
        json(res, { chat_id: body.chat_id, last_updated: new Date().toISOString() });
      });
    if (url.pathname === "/api/ns/chat_user" && req.method === "POST") {
      const body = [];
      req.on("data", (c) => body.push(c));
      req.on("end", async () => {
        const sent = JSON.parse(Buffer.concat(body).toString()).messages;
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        let closed = false;
        res.on("close", () => (closed = true));
        for (let i = 0; i < TOKENS.length && !closed; i += TOKENS_PER_DELTA) {
          await new Promise((r) => setTimeout(r, DELTA_MS));
          res.write(`event: delta\ndata: ${JSON.stringify({ text: TOKENS.slice(i, i + TOKENS_PER_DELTA).join("") })}\n\n`);
        }
        const done = {
          messages: [...sent, { role: "assistant", content: TOKENS.join("") }],
          chat_id: null,
          attachment: null,
          document: null,
          context: { omitted_messages: 0, omitted_documents: 0, latest_message_cut: false },
        };
        res.end(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
      });
      return;
    }
    const upstream = http.request({ host: "127.0.0.1", port: appPort, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}
