import { sendChat, type SendChatInput, type SendChatResult } from "@/lib/browser/chat/send-turn";
import { isConfidentialCode, isEnclaveVerificationError, type ConfidentialPublicConfig } from "@/lib/shared/confidential/protocol";

type ConfidentialClient = typeof import("@/lib/browser/confidential/turn");
let client: Promise<ConfidentialClient> | undefined;

/**
 * The confidential client, loaded on first use rather than with /chat; a failed load is retried on the next call.
 * @throws the chunk's load error
 */
export function confidentialClient(): Promise<ConfidentialClient> {
  client ??= import("@/lib/browser/confidential/turn").catch((error: unknown) => {
    client = undefined;
    throw error;
  });
  return client;
}

/** How the chat sends a turn of `model`: encrypted to the verified enclave for a confidential model, else `sendChat`. */
export function turnSender(config: ConfidentialPublicConfig | null, model: string): (input: SendChatInput) => Promise<SendChatResult> {
  if (config && isConfidentialCode(config, model)) return async (input) => (await confidentialClient()).sendConfidentialTurn(input, config);
  return sendChat;
}

/** The text for a turn not sent because the enclave failed verification, or null for other errors. */
export function verificationFailureText(error: unknown): string | null {
  return isEnclaveVerificationError(error) ? error.message : null;
}
