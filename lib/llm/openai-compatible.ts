import "server-only";
import { createParser } from "eventsource-parser";
import OpenAI from "openai";
import type { ProviderClientOptions } from "./groq";
import { llmFetch } from "./groq";
import { toOpenAiMessages } from "./prompt";
import { streamOpenAiProtocol, type ChunkLike } from "./openai-protocol";
import type { LlmEvent, LlmProvider, LlmRequest } from "./types";

/** Local servers (Ollama, llama.cpp) ignore the key, but the SDK refuses to start without one. */
const PLACEHOLDER_API_KEY = "not-needed";

/**
 * Any OpenAI-compatible chat-completions server through openai@6: LLM_BASE_URL or LLM_<TIER>_BASE_URL
 * (including /v1, e.g. http://localhost:11434/v1 for Ollama) and its API key. No automatic retries (see groq.ts).
 * `stream_options.include_usage` asks for the final usage chunk (OpenAI, vLLM, llama.cpp, Ollama).
 */
export function createOpenAiCompatibleProvider(options: ProviderClientOptions): LlmProvider {
  const client = new OpenAI({
    apiKey: options.apiKey ?? PLACEHOLDER_API_KEY,
    baseURL: options.baseUrl,
    // Explicit nulls so the SDK does not pick up OPENAI_* variables behind lib/config.ts's back.
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: options.timeoutMs,
    logLevel: "off",
    // node:http instead of Next's patched fetch (./http-fetch.ts, docs/issues.md #24).
    fetch: llmFetch,
  });
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
          sseChunks(
            await client.chat.completions
              .create(
                {
                  model: req.model,
                  messages: toOpenAiMessages(req.messages) as OpenAI.Chat.ChatCompletionMessageParam[],
                  stream: true,
                  stream_options: { include_usage: true },
                },
                { signal },
              )
              .asResponse(),
            signal,
          ),
      });
    },
  };
}

/**
 * The chunks of a chat-completions SSE response (docs/issues.md #12): the SDK still makes the request and turns
 * an HTTP error status into its APIError, but the body is parsed here with eventsource-parser, one
 * pass per network read, instead of by the SDK's Stream (its chunk and line decoders re-copy the
 * buffer for every event and add several async-generator hops per chunk: 19% of a visitor request's
 * CPU in bench/perf's profile). The chunks of one network read are yielded together, as one array
 * (docs/issues.md #24: one generator hop per read, not per token). Same outcomes as the SDK's Stream: `[DONE]` ends it; a chunk carrying
 * `error` throws OpenAI.APIError (no status: an error inside the stream); an abort ends it quietly (the
 * caller knows why it aborted); a broken body or unparsable chunk throws.
 */
export async function* sseChunks(response: Response, signal: AbortSignal): AsyncGenerator<ChunkLike[]> {
  if (!response.body) throw new OpenAI.APIConnectionError({ message: "The response has no body." });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let ready: ChunkLike[] = [];
  let done = false;
  let failure: unknown = null;
  const parser = createParser({
    onEvent(event) {
      if (done || failure) return;
      if (event.data.startsWith("[DONE]")) {
        done = true;
        return;
      }
      try {
        const data = JSON.parse(event.data) as ChunkLike & { error?: unknown };
        if (data && data.error) failure = new OpenAI.APIError(undefined, data.error as object, undefined, response.headers);
        else ready.push(data);
      } catch (error) {
        failure = error;
      }
    },
  });
  try {
    while (!done) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
      if (read.done) {
        parser.feed(decoder.decode());
        parser.feed("\n\n");
      } else {
        parser.feed(decoder.decode(read.value, { stream: true }));
      }
      const batch = ready;
      ready = [];
      if (batch.length) yield batch;
      if (failure) throw failure;
      if (read.done) break;
    }
  } finally {
    // Release the connection: cancel whatever the provider still sends after [DONE] or a failure.
    reader.cancel().catch(() => {});
  }
}
