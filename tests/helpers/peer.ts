import { PEER_ADDRESS_HEADER } from "@/lib/server/peer-address";

/**
 * Headers a request has when it reached `next start` from the TCP peer `address`: lib/server/peer-address.ts
 * writes the peer into PEER_ADDRESS_HEADER. Route tests that call handlers directly add these.
 */
export function fromPeer(address: string, headers: Record<string, string> = {}): Record<string, string> {
  return { ...headers, [PEER_ADDRESS_HEADER]: address };
}
