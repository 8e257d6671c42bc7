import http from "node:http";
import https from "node:https";

/**
 * Stamps the TCP peer's address on every incoming HTTP request, before Next.js sees it, as the
 * request header PEER_ADDRESS_HEADER (any value a client sent under that name is replaced).
 *
 * Why: an App Router route handler receives a web `Request`, which has no socket. Next's server
 * (node_modules/next/dist/server/base-server.js, `handleRequest`) only does
 * `req.headers['x-forwarded-for'] ??= socket.remoteAddress`: when a client sends its own
 * X-Forwarded-For, Next keeps it unchanged and the real peer address is lost, so the header alone
 * cannot tell a spoofed value from one Next wrote. Node's `http.Server` emits "request" with the
 * IncomingMessage, whose `socket.remoteAddress` is the peer; wrapping `emit` is the one place where
 * both are at hand for server.mjs (npm start, npm run dev, the image), its hot path included, and for
 * `next start` and `next dev` alike (all call `http.createServer`). lib/server/client-address.ts then trusts X-Forwarded-For and the country header
 * only when this peer is a configured proxy (TRUSTED_PROXIES).
 *
 * Called from instrumentation.ts `register()` (Node.js runtime only), which Next runs at start-up.
 * Requests accepted before then carry no stamp: lib/server/client-address.ts treats them as an unknown
 * address (counted together), never as whatever a header claims.
 */

/** The header carrying the socket peer's address (lower-case, as Node and Next store header names). */
export const PEER_ADDRESS_HEADER = "x-hush-peer-address";

const STAMPED = Symbol.for("hush.peerStamp");

/** Install the stamp once per process (idempotent). */
export function installPeerStamp(): void {
  for (const Server of [http.Server, https.Server] as unknown as { prototype: { emit: (...args: unknown[]) => boolean } }[]) {
    const proto = Server.prototype as { emit: (event: string, ...args: unknown[]) => boolean; [STAMPED]?: true };
    if (proto[STAMPED]) continue;
    const emit = proto.emit;
    proto.emit = function stampedEmit(this: unknown, event: string, ...args: unknown[]): boolean {
      if (event === "request") {
        const req = args[0] as http.IncomingMessage | undefined;
        if (req?.headers) {
          const peer = req.socket?.remoteAddress;
          if (peer) req.headers[PEER_ADDRESS_HEADER] = peer;
          else delete req.headers[PEER_ADDRESS_HEADER];
        }
      }
      return emit.call(this, event, ...args);
    };
    proto[STAMPED] = true;
  }
}
