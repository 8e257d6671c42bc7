/**
 * Hush's HTTP server (docs/performance.md "Custom server"): answers the chat hot path (lib/server/hot-path.ts) with
 * the handlers Next loaded, handed over through the process state; everything else goes to Next. Imports nothing of lib.
 *   node --require ./deploy/http-timeouts.cjs server.mjs [-p PORT] [-H HOST] [--dev]
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
  // As Next's standalone server.js does: the image has no next.config.ts.
  const manifest = path.join(dir, ".next", "required-server-files.json");
  if (existsSync(manifest)) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(JSON.parse(readFileSync(manifest, "utf8")).config);
}

const { default: next } = await import("next");
const server = http.createServer();
const app = next({ dev, dir, hostname, port, httpServer: server });

// lib/server/process-state.ts PROCESS_STATE_KEY.
const PROCESS_STATE = Symbol.for("hush.process");
const processState = (globalThis[PROCESS_STATE] ??= {});
processState.httpServer = { value: server };

// Unfinished answers, for the drain.
const open = new Set();
let draining = false;
const closeIdle = () => server.closeIdleConnections();

// lib/server/lifecycle.ts calls this when it drains; the exit is held back until the work in flight is done.
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
// So the database is migrated before anyone is served.
await (await app.server?.getServer?.())?.prepare?.();
const nextHandler = app.getRequestHandler();
// In development the hot path is off unless HUSH_FAST_PATH=1.
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
  // Next's proxy swapped the request's listeners: without this an "aborted" after 'close' is uncaught.
  res.once("close", () => req.on("error", () => undefined));
  const hot = fastPath ? hotPath() : undefined;
  if (hot?.handle(req, res)) return;
  void nextHandler(req, res);
});
server.listen(port, hostname, () => {
  const hot = fastPath && hotPath() ? "on" : "off";
  console.log(`[hush] listening on http://${hostname}:${port}${dev ? " (development)" : ""}, hot path ${hot}`);
});
