/**
 * Hush's HTTP server (docs/performance.md "Custom server"): one
 * node:http server that answers the chat hot path itself and hands every other request to Next.js's
 * request handler in the same process.
 *
 *   node --require ./deploy/http-timeouts.cjs server.mjs [-p PORT] [-H HOST] [--dev]
 *
 * PORT and HOSTNAME from the environment are used when -p/-H are not given (defaults 3000, 0.0.0.0;
 * the Docker image sets them). `npm start` runs it on the build of `npm run build`, `npm run dev` with
 * --dev; the Docker image runs the same file beside Next's standalone output (deploy/Dockerfile).
 *
 * The hot path (the routes whose contract entry says `fastPath: true`: the chat turns, the relay, the
 * sealed save and the history reads; lib/server/hot-path.ts) is served by the very handlers of the
 * route files, from the copy of lib Next loaded for instrumentation.ts, handed over through one slot of
 * the process state (lib/server/process-state.ts): this file imports nothing of lib, so there is no
 * second copy of any module state (database, quota, rate limits, lifecycle). Until Next is prepared (and so
 * instrumentation has run) nothing is listening. In development the hot path is off unless
 * HUSH_FAST_PATH=1: Next recompiles the route files on edit, instrumentation's copy is not reloaded.
 * HUSH_FAST_PATH=0 turns it off in production.
 *
 * Plain JavaScript on purpose: it runs as is in the image, where nothing compiles TypeScript.
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
  // The config the build resolved (as Next's standalone server.js does): no next.config.ts to load,
  // which the image does not have.
  const manifest = path.join(dir, ".next", "required-server-files.json");
  if (existsSync(manifest)) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(JSON.parse(readFileSync(manifest, "utf8")).config);
}

const { default: next } = await import("next");
const server = http.createServer();
// httpServer: Next attaches its own WebSocket upgrade handler (development hot reload) to it.
const app = next({ dev, dir, hostname, port, httpServer: server });

// The process state's registry (lib/server/process-state.ts PROCESS_STATE_KEY): the one hand-over with
// Next's copy of lib, in both directions.
const PROCESS_STATE = Symbol.for("hush.process");
const processState = (globalThis[PROCESS_STATE] ??= {});
// lib/server/lifecycle.ts closes what connections are left once the writes in flight are done.
processState.httpServer = { value: server };

// Answers not yet finished, so a drain can mark them `Connection: close`, or close their connection
// once done when their headers are already out.
const open = new Set();
let draining = false;
const closeIdle = () => server.closeIdleConnections();

// Registered before Next's instrumentation runs, so lib/server/lifecycle.ts finds it and calls it when it
// drains (as it calls `next start`'s own): stop accepting connections, answer `Connection: close` from
// now on (a kept-alive connection is not served again: docs/issues.md #53), then report every connection closed
// through process.exit, which the drain holds back until the work in flight is done.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    draining = true;
    for (const res of open) {
      if (!res.headersSent) res.setHeader("Connection", "close");
      // An answer already under way (a chat stream) leaves its connection idle once done: close it then.
      res.once("finish", closeIdle);
    }
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  });
}

await app.prepare();
// In production Next prepares its server, and so runs instrumentation.ts, at the first request
// (node_modules/next/dist/server/next.js NextServer.prepare); do it now, before listening, so the
// database is migrated and the hot path offered before anyone is served.
await (await app.server?.getServer?.())?.prepare?.();
const nextHandler = app.getRequestHandler();
// HUSH_FAST_PATH=0 serves everything through Next (the same handlers, with Next's routing): a comparison
// within one build (bench/perf), or a way back should the hot path misbehave.
const fastPath = process.env.HUSH_FAST_PATH === "1" || (!dev && process.env.HUSH_FAST_PATH !== "0");
// The `hotPath` slot of the process state, filled by lib/server/hot-path.ts installHotPath.
/** @returns {import("./lib/server/hot-path").HotPath | undefined} */
const hotPath = () => processState.hotPath?.value;

server.on("request", (req, res) => {
  if (draining) {
    res.setHeader("Connection", "close");
  } else {
    open.add(res);
    res.once("close", () => open.delete(res));
  }
  // A client gone mid-answer (Stop) makes Node destroy the request with "aborted" (ECONNRESET) just after
  // this 'close'; Next's proxy swapped the request's listeners for its body copy's (next/dist/server/body-streams.js
  // getCloneableBody), so without this nothing listens and it is an uncaught exception.
  res.once("close", () => req.on("error", () => undefined));
  // Looked up per request (two property reads): present once instrumentation has run.
  const hot = fastPath ? hotPath() : undefined;
  if (hot?.handle(req, res)) return;
  void nextHandler(req, res);
});
server.listen(port, hostname, () => {
  const hot = fastPath && hotPath() ? "on" : "off";
  console.log(`[hush] listening on http://${hostname}:${port}${dev ? " (development)" : ""}, hot path ${hot}`);
});
