import "server-only";
import Groq from "groq-sdk";
import type { Config } from "@/lib/config";
import { streamOpenAiProtocol } from "./openai-protocol";
import type { LlmEvent, LlmProvider, LlmRequest } from "./types";

/** Groq's public API origin; groq-sdk appends /openai/v1/chat/completions. */
const GROQ_DEFAULT_BASE_URL = "https://api.groq.com";

/**
 * Groq through groq-sdk (GROQ_API_KEY; GROQ_BASE_URL for tests and proxies).
 * No automatic retries: a 429 must reach the caller at once (spec §8 maps it to the limit message).
 * Usage arrives in `x_groq.usage` on the last chunk, so no stream_options are sent.
 */
export function createGroqProvider(config: Config): LlmProvider {
  const client = new Groq({
    apiKey: config.GROQ_API_KEY ?? "",
    baseURL: config.GROQ_BASE_URL ?? GROQ_DEFAULT_BASE_URL,
    maxRetries: 0,
    timeout: config.LLM_TIMEOUT_MS,
    // The SDK logs unparsable stream chunks verbatim; those may hold model output.
    logLevel: "off",
  });
  return {
    kind: "groq",
    stream(req: LlmRequest): AsyncIterable<LlmEvent> {
      return streamOpenAiProtocol({
        provider: "groq",
        timeoutMs: config.LLM_TIMEOUT_MS,
        signal: req.signal,
        messages: req.messages,
        errors: Groq,
        open: (signal) =>
          client.chat.completions.create({ model: req.model, messages: req.messages, stream: true }, { signal }),
      });
    },
  };
}
