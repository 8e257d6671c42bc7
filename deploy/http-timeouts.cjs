/**
 * Request timeouts for the Node server (docs/issues.md #22, "Slow bodies"), loaded before Next with
 * `node --require ./deploy/http-timeouts.cjs server.mjs` (npm start, deploy/Dockerfile): server.mjs, like
 * `next start`, creates its http.Server with Node's defaults (5 minutes for a whole request), so every
 * server this process creates gets these instead:
 *   headersTimeout 10 s: the request line and headers must arrive within it;
 *   requestTimeout 25 s: the whole request, body included (a chat, a save), must arrive within it;
 *   connectionsCheckingInterval 1 s: how often Node looks for expired requests (default 30 s).
 * A client that trickles its headers or body is answered 408 and disconnected within 26 s. Responses are
 * not limited: a chat answer may stream for as long as the model writes. Behind nginx (deploy/nginx.conf)
 * the body is buffered by nginx first, so a slow uplink costs nginx a connection, never the app.
 */
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload for `node --require` */
const http = require("node:http");
const https = require("node:https");

const TIMEOUTS = Object.freeze({ headersTimeout: 10_000, requestTimeout: 25_000, connectionsCheckingInterval: 1_000 });

for (const mod of [http, https]) {
  const createServer = mod.createServer;
  mod.createServer = function createServerWithTimeouts(options, listener) {
    if (typeof options === "function" || options === undefined) return createServer.call(this, { ...TIMEOUTS }, options);
    return createServer.call(this, { ...TIMEOUTS, ...options }, listener);
  };
}

module.exports = { TIMEOUTS };
