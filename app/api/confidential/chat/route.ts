import { relayChat } from "@/lib/server/confidential/relay";

/**
 * POST /api/confidential/chat: one EHBP-encrypted chat turn, relayed byte for byte to the configured
 * enclave after the session or visitor, plan and quota checks (lib/server/confidential/relay.ts,
 * docs/confidential-inference.md). The body is ciphertext; it is never parsed, logged or stored.
 */
export function POST(request: Request): Promise<Response> {
  return relayChat(request);
}
