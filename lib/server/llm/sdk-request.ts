import "server-only";
import { headerRecord, llmFetch } from "./http-fetch";
import { sseChunks, type ChunkLike, type SseErrorClasses } from "./openai-protocol";

// The SDK's own request, captured once and sent per turn through llmFetch (tests/unit/llm-sdk-request.test.ts).

export interface SdkRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
}

/** Capture the request of `run`'s `create()` once; `run` swaps only the fetch and calls `.asResponse()`. */
export function captureSdkRequest(run: (fetch: typeof globalThis.fetch) => Promise<unknown>): () => Promise<SdkRequest> {
  let captured: Promise<SdkRequest> | undefined;
  return () =>
    (captured ??= (async () => {
      let request: SdkRequest | undefined;
      const record = (async (input: string | URL | Request, init: RequestInit = {}) => {
        request = { url: new URL(String(input)), method: (init.method ?? "GET").toUpperCase(), headers: headerRecord(init.headers) };
        return new Response(null, { status: 200 });
      }) as typeof globalThis.fetch;
      await run(record);
      if (!request) throw new Error("The SDK made no request to capture.");
      return request;
    })());
}

/** @throws the SDK's APIError for an error status; TypeError, AbortError as fetch would. */
export async function sendChatRequest(
  request: SdkRequest,
  body: object,
  signal: AbortSignal,
  errors: SseErrorClasses & { APIError: { generate(status: number, error: object | undefined, message: string | undefined, headers: Headers): Error } },
): Promise<AsyncIterable<ChunkLike[]>> {
  const response = await llmFetch(request.url, { method: request.method, headers: request.headers, body: JSON.stringify(body), signal });
  if (!response.ok) {
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
