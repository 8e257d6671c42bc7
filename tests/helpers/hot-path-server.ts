import http from "node:http";
import type { AddressInfo } from "node:net";
import { handleHotRequest } from "@/lib/server/hot-path";

/**
 * server.mjs's hot path (lib/server/hot-path.ts, docs/issues.md #24) over real HTTP for route tests: a node:http
 * server on 127.0.0.1 (a free port) that answers through handleHotRequest as server.mjs does, and anything else
 * with 404 `{ error: "not on the hot path" }` (Next there). Resolves to the server and its `base` URL
 * (`http://127.0.0.1:<port>`).
 */
export async function startHotPathServer(): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer((req, res) => {
    if (handleHotRequest(req, res)) return;
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: "not on the hot path" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Close a server of startHotPathServer(), its open connections first; resolves once it is closed. */
export async function stopHotPathServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
