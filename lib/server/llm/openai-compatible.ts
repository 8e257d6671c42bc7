import "server-only";
import OpenAI from "openai";
import type { ProviderClientOptions } from "./groq";
import { toOpenAiMessages } from "@/lib/shared/llm/prompt";
import { streamOpenAiProtocol } from "./openai-protocol";
import { captureSdkRequest, sendChatRequest } from "./sdk-request";
import type { LlmEvent, LlmProvider, LlmRequest } from "@/lib/shared/llm/types";

/** Local servers (Ollama, llama.cpp) ignore the key, but the SDK refuses to start without one. */
const PLACEHOLDER_API_KEY = "not-needed";

/**
 * Any OpenAI-compatible chat-completions server through openai@6: LLM_BASE_URL or LLM_<TIER>_BASE_URL
 * (including /v1, e.g. http://localhost:11434/v1 for Ollama) and its API key. No automatic retries (see groq.ts).
 * `stream_options.include_usage` asks for the final usage chunk (OpenAI, vLLM, llama.cpp, Ollama).
 * The request is the SDK's `create()`'s, captured once and sent per turn by ./sdk-request.ts.
 */
export function createOpenAiCompatibleProvider(options: ProviderClientOptions): LlmProvider {
  const client = new OpenAI({
    apiKey: options.apiKey ?? PLACEHOLDER_API_KEY,
    baseURL: options.baseUrl,
    // Explicit nulls so the SDK does not pick up OPENAI_* variables behind lib/server/config.ts's back.
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
              // Only a turn that offers functions carries `tools`: a plain turn's body is as before.
              ...(req.tools?.length ? { tools: req.tools as OpenAI.Chat.ChatCompletionTool[] } : {}),
            } satisfies OpenAI.Chat.ChatCompletionCreateParamsStreaming,
            signal,
            OpenAI,
          ),
      });
    },
  };
}
