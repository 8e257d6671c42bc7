import "server-only";
import Groq from "groq-sdk";
import type { ChatCompletionCreateParamsStreaming } from "groq-sdk/resources/chat/completions";
import { toOpenAiMessages } from "@/lib/shared/llm/prompt";
import { streamOpenAiProtocol } from "./openai-protocol";
import { captureSdkRequest, sendChatRequest } from "./sdk-request";
import type { LlmEvent, LlmProvider, LlmRequest } from "@/lib/shared/llm/types";

const GROQ_DEFAULT_BASE_URL = "https://api.groq.com";

export interface ProviderClientOptions {
  baseUrl?: string;
  apiKey?: string;
  timeoutMs: number;
}

/** Groq through groq-sdk, without retries: a 429 must reach the caller at once (docs/product.md §8). */
export function createGroqProvider(options: ProviderClientOptions): LlmProvider {
  const client = new Groq({
    apiKey: options.apiKey ?? "",
    baseURL: options.baseUrl ?? GROQ_DEFAULT_BASE_URL,
    maxRetries: 0,
    timeout: options.timeoutMs,
    // The SDK logs unparsable stream chunks verbatim; those may hold model output.
    logLevel: "off",
  });
  const chatRequest = captureSdkRequest((fetch) =>
    client.withOptions({ fetch }).chat.completions.create({ model: "", messages: [], stream: true }).asResponse(),
  );
  return {
    kind: "groq",
    stream(req: LlmRequest): AsyncIterable<LlmEvent> {
      return streamOpenAiProtocol({
        provider: "groq",
        timeoutMs: options.timeoutMs,
        signal: req.signal,
        messages: req.messages,
        errors: Groq,
        open: async (signal) =>
          sendChatRequest(
            await chatRequest(),
            {
              model: req.model,
              messages: toOpenAiMessages(req.messages) as Groq.Chat.ChatCompletionMessageParam[],
              stream: true,
              ...(req.tools?.length ? { tools: req.tools as Groq.Chat.ChatCompletionTool[] } : {}),
            } satisfies ChatCompletionCreateParamsStreaming,
            signal,
            Groq,
          ),
      });
    },
  };
}
