import "server-only";
import OpenAI from "openai";
import type { ProviderClientOptions } from "./groq";
import { toOpenAiMessages } from "@/lib/shared/llm/prompt";
import { streamOpenAiProtocol } from "./openai-protocol";
import { captureSdkRequest, sendChatRequest } from "./sdk-request";
import type { LlmEvent, LlmProvider, LlmRequest } from "@/lib/shared/llm/types";

/** Local servers (Ollama, llama.cpp) ignore the key, but the SDK refuses to start without one. */
const PLACEHOLDER_API_KEY = "not-needed";

/** Any OpenAI-compatible chat-completions server (LLM_BASE_URL, including /v1), without retries. */
export function createOpenAiCompatibleProvider(options: ProviderClientOptions): LlmProvider {
  const client = new OpenAI({
    apiKey: options.apiKey ?? PLACEHOLDER_API_KEY,
    baseURL: options.baseUrl,
    // Explicit nulls so the SDK does not read OPENAI_* variables behind lib/server/config.ts's back.
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: options.timeoutMs,
    logLevel: "off",
  });
  const chatRequest = captureSdkRequest((fetch) =>
    client
      .withOptions({ fetch })
      .chat.completions.create({ model: "", messages: [], stream: true, stream_options: { include_usage: true } })
      .asResponse(),
  );
  return {
    kind: "openai-compatible",
    stream(req: LlmRequest): AsyncIterable<LlmEvent> {
      return streamOpenAiProtocol({
        provider: "openai-compatible",
        timeoutMs: options.timeoutMs,
        signal: req.signal,
        messages: req.messages,
        errors: OpenAI,
        open: async (signal) =>
          sendChatRequest(
            await chatRequest(),
            {
              model: req.model,
              messages: toOpenAiMessages(req.messages) as OpenAI.Chat.ChatCompletionMessageParam[],
              stream: true,
              stream_options: { include_usage: true },
              ...(req.tools?.length ? { tools: req.tools as OpenAI.Chat.ChatCompletionTool[] } : {}),
            } satisfies OpenAI.Chat.ChatCompletionCreateParamsStreaming,
            signal,
            OpenAI,
          ),
      });
    },
  };
}
