import { relayChat } from "@/lib/server/confidential/relay";

/** POST /api/confidential/chat: one EHBP-encrypted chat turn relayed to the enclave (lib/server/confidential/relay.ts). */
export const POST = relayChat;
