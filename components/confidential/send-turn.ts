import { sendChat, type SendChatInput, type SendChatResult } from "@/lib/chat/send-turn";
import type { ConfidentialPublicConfig } from "@/lib/confidential/protocol";
import { isConfidentialCode, isEnclaveVerificationError, sendConfidentialTurn } from "@/lib/confidential/turn";

/**
 * How the chat sends a turn of `model`: encrypted to the verified enclave through the relay when the model
 * is in the confidential list (lib/confidential/turn.ts), else today's path (lib/chat/client.ts `sendChat`).
 */
export function turnSender(config: ConfidentialPublicConfig | null, model: string): (input: SendChatInput) => Promise<SendChatResult> {
  if (config && isConfidentialCode(config, model)) return (input) => sendConfidentialTurn(input, config);
  return sendChat;
}

/** The chat's text for a turn that was not sent because the enclave failed verification, or null for other errors. */
export function verificationFailureText(error: unknown): string | null {
  return isEnclaveVerificationError(error) ? error.message : null;
}
