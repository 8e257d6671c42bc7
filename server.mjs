/**
 * Hush's HTTP server (docs/performance.md "Custom server"): one node:http server that answers the chat hot path
 * (lib/server/hot-path.ts) itself with the route files' handlers, handed over through the process state, and
 * passes every other request to Next.js. It imports nothing of lib, so module state has one copy.
 *   node --require ./deploy/http-timeouts.cjs server.mjs [-p PORT] [-H HOST] [--dev]
 * Plain JavaScript: the image compiles no TypeScript.
 */
import { readFileSync, existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dir = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const dev = args.includes("--dev");
const port = Number(flag("-p") ?? flag("--port") ?? process.env.PORT ?? 3000);
const hostname = flag("-H") ?? flag("--hostname") ?? process.env.HOSTNAME ?? "0.0.0.0";

if (!dev) {
  process.env.NODE_ENV = "production";
  // The config the build resolved (as Next's standalone server.js does): the image has no next.config.ts.
  const manifest = path.join(dir, ".next", "required-server-files.json");
  if (existsSync(manifest)) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(JSON.parse(readFileSync(manifest, "utf8")).config);
}

const { default: next } = await import("next");
const server = http.createServer();
// Next attaches its development WebSocket upgrade handler to it.
const app = next({ dev, dir, hostname, port, httpServer: server });

// lib/server/process-state.ts PROCESS_STATE_KEY: the one hand-over with Next's copy of lib.
const PROCESS_STATE = Symbol.for("hush.process");
const processState = (globalThis[PROCESS_STATE] ??= {});
processState.httpServer = { value: server };

// Unfinished answers, so a drain can mark them `Connection: close` or close their connection once done.
const open = new Set();
let draining = false;
const closeIdle = () => server.closeIdleConnections();

// lib/server/lifecycle.ts calls this when it drains: stop accepting connections, answer `Connection: close`, then
// exit, which the drain holds back until the work in flight is done.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    draining = true;
    for (const res of open) {
      if (!res.headersSent) res.setHeader("Connection", "close");
      res.once("finish", closeIdle);
    }
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  });
}

await app.prepare();
// Prepare now (Next would at the first request), so the database is migrated before anyone is served.
await (await app.server?.getServer?.())?.prepare?.();
const nextHandler = app.getRequestHandler();
// HUSH_FAST_PATH=0 serves everything through Next; in development the hot path is off unless HUSH_FAST_PATH=1.
const fastPath = process.env.HUSH_FAST_PATH === "1" || (!dev && process.env.HUSH_FAST_PATH !== "0");
/** @returns {import("./lib/server/hot-path").HotPath | undefined} */
const hotPath = () => processState.hotPath?.value;

server.on("request", (req, res) => {
  if (draining) {
    res.setHeader("Connection", "close");
  } else {
    open.add(res);
    res.once("close", () => open.delete(res));
  }
  // A client gone mid-answer makes Node emit "aborted" on the request after 'close'; Next's proxy swapped its
  // listeners, so without this it is an uncaught exception.
  res.once("close", () => req.on("error", () => undefined));
  const hot = fastPath ? hotPath() : undefined;
  if (hot?.handle(req, res)) return;
  void nextHandler(req, res);
});
server.listen(port, hostname, () => {
  const hot = fastPath && hotPath() ? "on" : "off";
  console.log(`[hush] listening on http://${hostname}:${port}${dev ? " (development)" : ""}, hot path ${hot}`);
});
