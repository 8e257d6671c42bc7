/**
 * The provider-neutral LLM interface. Every provider (Groq, any OpenAI-compatible server, the built-in
 * development responder) streams text deltas and then one usage event, and fails with an `LlmError`.
 */
import type { MessageImage } from "@/lib/shared/chat/images";

/** Which provider serves a model tier (lib/server/config.ts LLM_* settings). */
export type LlmProviderKind = "groq" | "openai-compatible" | "development";

export type LlmRole = "system" | "user" | "assistant";

export interface LlmMessage {
  role: LlmRole;
  content: string;
  /**
   * Images of a user message, for a model that reads images: sent after the text as
   * OpenAI `image_url` content parts (./prompt.ts `toOpenAiMessages`). Never logged.
   */
  images?: MessageImage[];
}

export interface LlmRequest {
  /** Provider model id (see `providerModelId()`), not the public code. */
  model: string;
  /** Complete conversation as sent to the model, system prompt first (see `buildModelMessages()`). */
  messages: LlmMessage[];
  /** The caller's cancellation (client disconnect, Stop button). Aborting ends the stream with kind "aborted". */
  signal?: AbortSignal;
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  /** True when the provider reported nothing and the numbers are estimates (about 4 characters a token). */
  estimated?: boolean;
}

/** Zero or more `delta` events in order, then exactly one `usage` event on success. */
export type LlmEvent = { type: "delta"; text: string } | { type: "usage"; usage: LlmUsage };

export interface LlmProvider {
  readonly kind: LlmProviderKind;
  /**
   * Stream a chat completion. Breaking out of the loop early cancels the upstream request.
   * @throws LlmError (kinds: rate_limited, unavailable, timeout, interrupted, bad_request, aborted)
   */
  stream(req: LlmRequest): AsyncIterable<LlmEvent>;
}
