/**
 * Hush's two confidential relay routes (the real route handlers) served over HTTP for the confidential tests
 * that run a whole turn from the browser's client: each request stamped with a visitor address, by default a
 * fresh one (`X-Test-Peer` chooses it).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { GET as attestationRoute } from "@/app/api/confidential/attestation/route";
import { POST as relayRoute } from "@/app/api/confidential/chat/route";
import { PEER_ADDRESS_HEADER } from "@/lib/server/peer-address";

let peerSeq = 0;

/** Start the relay routes on 127.0.0.1; `url` is its origin. */
export async function serveRelay(): Promise<{ server: http.Server; url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    headers.set(PEER_ADDRESS_HEADER, req.headers["x-test-peer"]?.toString() ?? `198.51.100.${(++peerSeq % 250) + 1}`);
    const request = new Request(`http://localhost:3000${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "POST" ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
      duplex: "half",
    } as RequestInit);
    const response = req.url?.startsWith("/api/confidential/attestation") ? await attestationRoute(request) : await relayRoute(request);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
