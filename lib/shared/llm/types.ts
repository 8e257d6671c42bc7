import type { MessageImage } from "@/lib/shared/chat/images";
import type { ToolCall, ToolDefinition } from "./tools";

export type LlmProviderKind = "groq" | "openai-compatible" | "development";

export type LlmRole = "system" | "user" | "assistant" | "tool";

export interface LlmMessage {
  role: LlmRole;
  content: string;
  images?: MessageImage[];
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface LlmRequest {
  model: string;
  messages: LlmMessage[];
  signal?: AbortSignal;
  tools?: readonly ToolDefinition[];
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  estimated?: boolean;
}

/** `delta` events, then one `tool_call` per function call, then one `usage` event with `finish_reason` on success. */
export type LlmEvent =
  | { type: "delta"; text: string }
  | { type: "tool_call"; call: ToolCall }
  | { type: "usage"; usage: LlmUsage; finishReason?: string };

export interface LlmProvider {
  readonly kind: LlmProviderKind;
  /** Breaking out of the loop early cancels the upstream request. @throws LlmError */
  stream(req: LlmRequest): AsyncIterable<LlmEvent>;
}
