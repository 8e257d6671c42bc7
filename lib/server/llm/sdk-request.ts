import "server-only";
import { headerRecord, llmFetch } from "./http-fetch";
import { sseChunks, type ChunkLike, type SseErrorClasses } from "./openai-protocol";

/**
 * The chat-completions request of an SDK (openai, groq-sdk), as the SDK itself makes it, sent per turn
 * without the SDK's per-request plumbing (docs/performance.md "a ladder of proxies").
 *
 * The SDK stays the authority on what is sent: its URL, method and headers (authorization, user agent,
 * its `x-stainless-*` platform headers) are captured from one real `create()` call made through the
 * SDK with a fetch that records the request instead of sending it (`captureSdkRequest`). Each turn
 * then sends those with its own JSON body through llmFetch, and an error status becomes the SDK's own
 * APIError through its `APIError.generate`, as the SDK's request loop does. What is skipped per turn is
 * what Hush turns off or does itself anyway: retries (maxRetries 0), logging (logLevel "off"), the
 * timeout (streamOpenAiProtocol's idle timer) and the abort plumbing around fetch; in bench/perf's
 * ladder that plumbing was about 0.13 ms of CPU a turn, a quarter of the provider layer's cost.
 * tests/unit/llm-sdk-request.test.ts checks that both SDKs' `create()` and this send the same request.
 */

/** What the SDK sends for a chat completion, apart from the body. */
export interface SdkRequest {
  url: URL;
  method: string;
  /** Lower-case names, as the SDK's Headers gave them. */
  headers: Record<string, string>;
}

/**
 * The request the SDK makes when `run` calls its `create()` with the given fetch (made once, on first
 * use, then shared by every turn of the provider). `run` must use a client configured as the
 * provider's (same key, base URL, retries) and only swap its fetch (`client.withOptions({ fetch })`),
 * and must call `.asResponse()` so the SDK does not read the empty stand-in answer.
 * @throws Error when `run` made no request (a programming error, seen at the first turn)
 */
export function captureSdkRequest(run: (fetch: typeof globalThis.fetch) => Promise<unknown>): () => Promise<SdkRequest> {
  let captured: Promise<SdkRequest> | undefined;
  return () =>
    (captured ??= (async () => {
      let request: SdkRequest | undefined;
      const record = (async (input: string | URL | Request, init: RequestInit = {}) => {
        // Upper-cased as both fetch and node:http send it.
        request = { url: new URL(String(input)), method: (init.method ?? "GET").toUpperCase(), headers: headerRecord(init.headers) };
        return new Response(null, { status: 200 });
      }) as typeof globalThis.fetch;
      await run(record);
      if (!request) throw new Error("The SDK made no request to capture.");
      return request;
    })());
}

/**
 * Send one streamed chat completion: `request`'s URL, method and headers with `body` as its JSON, and
 * the answer's chunks as sseChunks reads them.
 * @throws the SDK's APIError (through `errors.APIError.generate`) for an error status; llmFetch's
 *   TypeError for a connection that fails and its AbortError once `signal` fires, as the SDK's fetch would.
 */
export async function sendChatRequest(
  request: SdkRequest,
  body: object,
  signal: AbortSignal,
  errors: SseErrorClasses & { APIError: { generate(status: number, error: object | undefined, message: string | undefined, headers: Headers): Error } },
): Promise<AsyncIterable<ChunkLike[]>> {
  const response = await llmFetch(request.url, { method: request.method, headers: request.headers, body: JSON.stringify(body), signal });
  if (!response.ok) {
    // As the SDKs' request loop: the body's JSON (or its text when it is not JSON) into their APIError.
    const text = await response.text().catch((error: unknown) => (error instanceof Error ? error.message : ""));
    let json: object | undefined;
    try {
      json = JSON.parse(text) as object;
    } catch {
      json = undefined;
    }
    throw errors.APIError.generate(response.status, json, json ? undefined : text, response.headers);
  }
  return sseChunks(response, signal, errors);
}
