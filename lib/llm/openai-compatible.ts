import "server-only";
import OpenAI from "openai";
import type { Config } from "@/lib/config";
import { streamOpenAiProtocol } from "./openai-protocol";
import type { LlmEvent, LlmProvider, LlmRequest } from "./types";

/** Local servers (Ollama, llama.cpp) ignore the key, but the SDK refuses to start without one. */
const PLACEHOLDER_API_KEY = "not-needed";

/**
 * Any OpenAI-compatible chat-completions server through openai@6: LLM_BASE_URL (including /v1,
 * e.g. http://localhost:11434/v1 for Ollama) and LLM_API_KEY. No automatic retries (see groq.ts).
 * `stream_options.include_usage` asks for the final usage chunk (OpenAI, vLLM, llama.cpp, Ollama).
 */
export function createOpenAiCompatibleProvider(config: Config): LlmProvider {
  const client = new OpenAI({
    apiKey: config.LLM_API_KEY ?? PLACEHOLDER_API_KEY,
    baseURL: config.LLM_BASE_URL,
    // Explicit nulls so the SDK does not pick up OPENAI_* variables behind lib/config.ts's back.
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: config.LLM_TIMEOUT_MS,
    logLevel: "off",
  });
  return {
    kind: "openai-compatible",
    stream(req: LlmRequest): AsyncIterable<LlmEvent> {
      return streamOpenAiProtocol({
        provider: "openai-compatible",
        timeoutMs: config.LLM_TIMEOUT_MS,
        signal: req.signal,
        messages: req.messages,
        errors: OpenAI,
        open: (signal) =>
          client.chat.completions.create(
            {
              model: req.model,
              messages: req.messages,
              stream: true,
              stream_options: { include_usage: true },
            },
            { signal },
          ),
      });
    },
  };
}
