import http from "node:http";
import https from "node:https";

/**
 * Stamps the TCP peer's address on every request as PEER_ADDRESS_HEADER (replacing a client's value) by wrapping
 * `http.Server#emit`: a route handler's Request has no socket, and Next keeps a client's X-Forwarded-For.
 * Requests before instrumentation.ts ran carry no stamp (an unknown address).
 */

/** Lower-case, as Node stores header names. */
export const PEER_ADDRESS_HEADER = "x-hush-peer-address";

const STAMPED = Symbol.for("hush.peerStamp");

export function installPeerStamp(): void {
  for (const Server of [http.Server, https.Server]) {
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
