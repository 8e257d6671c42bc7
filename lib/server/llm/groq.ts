import "server-only";
import Groq from "groq-sdk";
import type { ChatCompletionCreateParamsStreaming } from "groq-sdk/resources/chat/completions";
import { toOpenAiMessages } from "@/lib/shared/llm/prompt";
import { streamOpenAiProtocol } from "./openai-protocol";
import { captureSdkRequest, sendChatRequest } from "./sdk-request";
import type { LlmEvent, LlmProvider, LlmRequest } from "@/lib/shared/llm/types";

/** Groq's public API origin; groq-sdk appends /openai/v1/chat/completions. */
const GROQ_DEFAULT_BASE_URL = "https://api.groq.com";

/** What a provider client needs: where, with which key, and LLM_TIMEOUT_MS. */
export interface ProviderClientOptions {
  baseUrl?: string;
  apiKey?: string;
  timeoutMs: number;
}

/**
 * Groq through groq-sdk (GROQ_API_KEY; GROQ_BASE_URL for tests and proxies).
 * No automatic retries: a 429 must reach the caller at once (docs/product.md §8 maps it to the limit message).
 * Usage arrives in `x_groq.usage` on the last chunk, so no stream_options are sent.
 * The request is the SDK's `create()`'s, captured once and sent per turn by ./sdk-request.ts.
 */
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
        // The SDK's request, the body parsed by sseChunks one batch per network read,
        // as for the OpenAI-compatible provider.
        open: async (signal) =>
          sendChatRequest(
            await chatRequest(),
            {
              model: req.model,
              messages: toOpenAiMessages(req.messages) as Groq.Chat.ChatCompletionMessageParam[],
              stream: true,
              // Only a turn that offers functions carries `tools`: a plain turn's body is as before.
              ...(req.tools?.length ? { tools: req.tools as Groq.Chat.ChatCompletionTool[] } : {}),
            } satisfies ChatCompletionCreateParamsStreaming,
            signal,
            Groq,
          ),
      });
    },
  };
}
