import type { SendChatInput, SendChatResult } from "@/lib/browser/chat/send-turn";
import type { EventSourceMessage } from "eventsource-parser";
import { isAbort, readEventStream } from "@/lib/browser/chat/event-stream";
import { AppError } from "@/lib/shared/errors";
import { turnModelInput } from "@/lib/shared/llm/turn-input";
import { toOpenAiMessages } from "@/lib/shared/llm/prompt";
import { chatRequestBody, pausedResult, type DevicePause } from "@/lib/browser/chat/send-turn";
import { offeredDeviceTools } from "@/lib/shared/llm/device-tools";
import type { ConfidentialTurnReceipt } from "./receipt-store";
import { enclaveVerificationCache, isAttestationRefused, type VerifiedEnclave } from "./attestation";
import { isConfidentialRequestError, sendConfidentialRequest } from "./ehbp-client";
import {
  CONTINUATION_HEADER,
  ENCLAVE_UNVERIFIED,
  SEARCH_QUOTA_REFUSAL,
  TINFOIL_EVENTS_HEADER,
  TINFOIL_EVENTS_WEB_SEARCH,
  VERIFICATION_FAILED_MESSAGE,
  WEB_SEARCH_HEADER,
  type ConfidentialPublicConfig,
  type EnclaveVerificationError,
} from "@/lib/shared/confidential/protocol";
import { EnclaveSearchStream } from "@/lib/browser/search/enclave-stream";
export { ENCLAVE_UNVERIFIED, VERIFICATION_FAILED_MESSAGE, isConfidentialCode, isEnclaveVerificationError, type EnclaveVerificationError } from "@/lib/shared/confidential/protocol";
import { recordReceipt } from "./receipt-store";

// One confidential turn (docs/confidential-inference.md). When verification fails, nothing is sent.

export type { ConfidentialTurnReceipt };

export interface ConfidentialTurnResult extends SendChatResult {
  receipt: ConfidentialTurnReceipt;
}

function enclaveVerificationError(reason: string, options?: { cause?: unknown }): EnclaveVerificationError {
  return new AppError(ENCLAVE_UNVERIFIED, VERIFICATION_FAILED_MESSAGE, { reason, cause: options?.cause }) as EnclaveVerificationError;
}

/** @throws EnclaveVerificationError when the document cannot be fetched or does not verify; AbortError on `signal` */
export async function verifiedEnclave(
  config: ConfidentialPublicConfig,
  options: { signal?: AbortSignal; fresh?: boolean } = {},
): Promise<{ enclave: VerifiedEnclave; cached: boolean }> {
  if (!options.fresh) {
    const cached = enclaveVerificationCache.latest(config.trust, config.enclaveHost);
    if (cached) return { enclave: cached, cached: true };
  }
  let document: unknown;
  try {
    const response = await fetch(config.paths.attestation, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      cache: "no-store",
      signal: options.signal,
    });
    if (!response.ok) throw new Error(`attestation answered ${response.status}`);
    document = await response.json();
  } catch (error) {
    if (isAbort(error)) throw error;
    throw enclaveVerificationError("unavailable", { cause: error });
  }
  try {
    const enclave = await enclaveVerificationCache.verify(document, {
      trust: config.trust,
      enclaveHost: config.enclaveHost,
      configRepo: config.configRepo ?? "",
    });
    return { enclave, cached: false };
  } catch (error) {
    throw enclaveVerificationError(isAttestationRefused(error) ? error.reason : "malformed", { cause: error });
  }
}

/**
 * `sendChat` for a confidential model, plus the receipt; past the day's searches (429) it is sent again without search.
 * @throws EnclaveVerificationError (nothing was sent); AppError for relay, enclave, decryption (502) or network (0) errors
 */
export async function sendConfidentialTurn(input: SendChatInput, config: ConfidentialPublicConfig): Promise<ConfidentialTurnResult> {
  try {
    return await sendTurn(input, config);
  } catch (error) {
    if (!(input.webSearch && error instanceof AppError && error.status === 429 && error.message === SEARCH_QUOTA_REFUSAL)) throw error;
    const result = await sendTurn({ ...input, webSearch: false }, config);
    return { ...result, search: { via: "enclave", engine: config.enclaveHost, queries: [], sources: [], status: "over_quota" } };
  }
}

async function sendTurn(input: SendChatInput, config: ConfidentialPublicConfig): Promise<ConfidentialTurnResult> {
  const model = input.model as keyof ConfidentialPublicConfig["enclaveModels"];
  const enclaveModel = config.enclaveModels[model];
  const budgetTokens = config.contextTokens[model];
  if (!enclaveModel || budgetTokens === undefined) throw AppError.fromStatus(400, "This model is not served confidentially.");

  const fitted = turnModelInput(chatRequestBody(input), budgetTokens);
  // A continuation is the same turn: its search was counted (and run) by its first request.
  const searches = Boolean(input.webSearch && !input.continuation);
  const searchFields = searches ? { web_search_options: {}, ...(config.searchPiiCheck ? { pii_check_options: {} } : {}) } : {};
  const tools = offeredDeviceTools(input);
  const steps = (input.continuation?.steps ?? []).flatMap((step) => [
    { role: "assistant", content: null, tool_calls: step.tool_calls },
    ...step.results,
  ]);
  const messages = [...toOpenAiMessages(fitted.messages), ...steps];
  const body = JSON.stringify({ model: enclaveModel, messages, stream: true, ...searchFields, ...(tools.length ? { tools } : {}) });
  input = { ...input, webSearch: searches };

  let attempt = await verifiedEnclave(config, { signal: input.signal });
  let sent;
  try {
    sent = await sendOnce(attempt.enclave, body, input, config);
  } catch (error) {
    // The enclave no longer holds the pinned key (restarted): verify it again, once.
    if (!(isConfidentialRequestError(error) && (error.reason === "key_config" || error.reason === "enclave_expired"))) throw asSendError(error);
    enclaveVerificationCache.clear(attempt.enclave.hpkePublicKey);
    attempt = await verifiedEnclave(config, { signal: input.signal, fresh: true });
    try {
      sent = await sendOnce(attempt.enclave, body, input, config);
    } catch (again) {
      throw asSendError(again);
    }
  }
  const { response, authenticated, receipt: transport } = sent;
  const receipt: ConfidentialTurnReceipt = { enclave: attempt.enclave, transport, cached: attempt.cached };

  if (!authenticated) {
    const data = (await response.json().catch(() => null)) as { error?: unknown } | null;
    throw AppError.fromStatus(response.status, typeof data?.error === "string" ? data.error : `Request failed (${response.status})`);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    throw AppError.fromStatus(response.status >= 500 ? response.status : 502, "The secure enclave could not answer this message.");
  }

  const search = input.webSearch ? new EnclaveSearchStream((page) => input.onSearch?.(page === null ? null : { page })) : null;
  const calls: DevicePause["tool_calls"] = [];
  const text = await readAnswer(response.body, input.onDelta, search, calls);
  recordReceipt(receipt);
  const record = search ? search.record(config.enclaveHost) : input.continuation?.search;
  if (calls.length) {
    const token = response.headers.get(CONTINUATION_HEADER);
    if (!token) throw AppError.fromStatus(502, "The answer asked for a tool on this device but could not be continued.");
    return { ...pausedResult(input, { tool_calls: calls, token, ...(record ? { search: record } : {}) }), receipt };
  }
  return {
    messages: [...input.messages.map(({ role, content }) => ({ role, content })), { role: "assistant", content: text }],
    chat_id: input.chatId,
    context: { ...fitted.report },
    receipt,
    ...(record ? { search: record } : {}),
  };
}

async function sendOnce(enclave: VerifiedEnclave, body: string, input: SendChatInput, config: ConfidentialPublicConfig) {
  try {
    return await sendConfidentialRequest(enclave, config.paths.chat, body, {
      headers: {
        "Content-Type": "application/json",
        Accept: "text/event-stream",
        [config.modelHeader]: input.model,
        ...(input.webSearch ? { [WEB_SEARCH_HEADER]: "1", [TINFOIL_EVENTS_HEADER]: TINFOIL_EVENTS_WEB_SEARCH } : {}),
        ...(input.continuation ? { [CONTINUATION_HEADER]: input.continuation.token } : {}),
      },
      signal: input.signal,
    });
  } catch (error) {
    if (isAbort(error) || isConfidentialRequestError(error)) throw error;
    throw AppError.fromStatus(0, "Network error");
  }
}

async function readAnswer(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  onDelta: (text: string) => void,
  search: EnclaveSearchStream | null,
  calls: DevicePause["tool_calls"],
): Promise<string> {
  let text = "";
  let finished = false;
  let failure: AppError | null = null;
  const onEvent = (event: EventSourceMessage) => {
    if (event.data === "[DONE]") {
      finished = true;
      return;
    }
    let chunk: {
      error?: { message?: unknown };
      choices?: { delta?: { content?: unknown; annotations?: unknown; tool_calls?: unknown }; finish_reason?: unknown }[];
    };
    try {
      chunk = JSON.parse(event.data) as typeof chunk;
    } catch {
      failure ??= AppError.fromStatus(502, "The answer could not be read.");
      return;
    }
    if (chunk.error) {
      failure ??= AppError.fromStatus(502, "The model service did not answer.");
      return;
    }
    const choice = chunk.choices?.[0];
    search?.annotate(choice?.delta?.annotations);
    const delta = choice?.delta?.content;
    if (typeof delta === "string" && delta !== "") {
      const shown = search ? search.push(delta) : delta;
      text += shown;
      if (shown) onDelta(shown);
    }
    if (Array.isArray(choice?.delta?.tool_calls)) {
      for (const piece of choice.delta.tool_calls as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) {
        const index = typeof piece.index === "number" ? piece.index : 0;
        const call = (calls[index] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
        if (typeof piece.id === "string") call.id = piece.id;
        if (typeof piece.function?.name === "string") call.function.name += piece.function.name;
        if (typeof piece.function?.arguments === "string") call.function.arguments += piece.function.arguments;
      }
    }
    if (typeof choice?.finish_reason === "string") finished = true;
  };
  try {
    await readEventStream(body, onEvent);
  } catch (error) {
    if (isAbort(error)) throw error;
    if (isConfidentialRequestError(error)) throw AppError.fromStatus(502, "The encrypted answer failed verification and was refused.");
    throw AppError.fromStatus(0, "The connection was lost while the answer was streaming.");
  }
  if (failure) throw failure;
  if (!finished) throw AppError.fromStatus(502, "The answer ended before it was complete.");
  const rest = search?.finish() ?? "";
  if (rest) onDelta(rest);
  return text + rest;
}

function asSendError(error: unknown): unknown {
  return isConfidentialRequestError(error) ? AppError.fromStatus(502, "The secure enclave's answer was refused: it was not encrypted for this message.") : error;
}

