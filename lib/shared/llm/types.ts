/**
 * The provider-neutral LLM interface. Every provider (Groq, any OpenAI-compatible server, the built-in
 * development responder) streams text deltas and then one usage event, and fails with an `LlmError`.
 */
import type { MessageImage } from "@/lib/shared/chat/images";
import type { ToolCall, ToolDefinition } from "./tools";

/** Which provider serves a model tier (lib/server/config.ts LLM_* settings). */
export type LlmProviderKind = "groq" | "openai-compatible" | "development";

/** OpenAI's roles; "tool" answers an assistant message's `tool_calls` (function calling, docs/issues.md #50). */
export type LlmRole = "system" | "user" | "assistant" | "tool";

export interface LlmMessage {
  role: LlmRole;
  content: string;
  /**
   * Images of a user message, for a model that reads images: sent after the text as
   * OpenAI `image_url` content parts (./prompt.ts `toOpenAiMessages`). Never logged.
   */
  images?: MessageImage[];
  /** An assistant message's function calls (OpenAI `tool_calls`); its `content` may be "". */
  tool_calls?: ToolCall[];
  /** A `role: "tool"` message: the id of the call it answers (OpenAI `tool_call_id`). */
  tool_call_id?: string;
}

export interface LlmRequest {
  /** Provider model id (see `providerModelId()`), not the public code. */
  model: string;
  /** Complete conversation as sent to the model, system prompt first (see `buildModelMessages()`). */
  messages: LlmMessage[];
  /** The caller's cancellation (client disconnect, Stop button). Aborting ends the stream with kind "aborted". */
  signal?: AbortSignal;
  /** Functions the model may call (OpenAI `tools`); absent or empty: none offered, the request carries no `tools`. */
  tools?: readonly ToolDefinition[];
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  /** True when the provider reported nothing and the numbers are estimates (about 4 characters a token). */
  estimated?: boolean;
}

/**
 * Zero or more `delta` events in order, then the model's function calls (one `tool_call` each, its streamed
 * `delta.tool_calls` pieces joined by index), then exactly one `usage` event on success, carrying the
 * choice's `finish_reason` ("stop", "tool_calls", "length", ...; undefined when the provider sent none).
 */
export type LlmEvent =
  | { type: "delta"; text: string }
  | { type: "tool_call"; call: ToolCall }
  | { type: "usage"; usage: LlmUsage; finishReason?: string };

export interface LlmProvider {
  readonly kind: LlmProviderKind;
  /**
   * Stream a chat completion. Breaking out of the loop early cancels the upstream request.
   * @throws LlmError (kinds: rate_limited, unavailable, timeout, interrupted, bad_request, aborted)
   */
  stream(req: LlmRequest): AsyncIterable<LlmEvent>;
}
