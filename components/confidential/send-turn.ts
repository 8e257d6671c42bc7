import { sendChat, type SendChatInput, type SendChatResult } from "@/lib/browser/chat/send-turn";
import { isConfidentialCode, isEnclaveVerificationError, type ConfidentialPublicConfig } from "@/lib/shared/confidential/protocol";

type ConfidentialClient = typeof import("@/lib/browser/confidential/turn");
let client: Promise<ConfidentialClient> | undefined;

/**
 * The browser's confidential client (lib/browser/confidential/turn.ts with the attestation verifier, EHBP and HPKE:
 * about 120 KB gzipped), loaded on the first confidential verification or send rather than with /chat
 * (docs/confidential-inference.md "Benchmarks"). A failed load is
 * retried on the next call.
 * @throws the chunk's load error (the chat shows it as a network failure)
 */
export function confidentialClient(): Promise<ConfidentialClient> {
  client ??= import("@/lib/browser/confidential/turn").catch((error: unknown) => {
    client = undefined;
    throw error;
  });
  return client;
}

/**
 * How the chat sends a turn of `model`: encrypted to the verified enclave through the relay when the model
 * is in the confidential list (lib/browser/confidential/turn.ts, loaded on first use), else today's path
 * (lib/browser/chat/send-turn.ts `sendChat`).
 */
export function turnSender(config: ConfidentialPublicConfig | null, model: string): (input: SendChatInput) => Promise<SendChatResult> {
  if (config && isConfidentialCode(config, model)) return async (input) => (await confidentialClient()).sendConfidentialTurn(input, config);
  return sendChat;
}

/** The chat's text for a turn that was not sent because the enclave failed verification, or null for other errors. */
export function verificationFailureText(error: unknown): string | null {
  return isEnclaveVerificationError(error) ? error.message : null;
}
