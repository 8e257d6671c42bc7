/**
 * The streaming loop shared by the Groq and OpenAI-compatible providers: both send their SDK's request
 * (./sdk-request.ts) and throw the same family of errors, and sseChunks (below) reads their response's
 * OpenAI-style `chat.completion.chunk` events.
 *
 * Timing rule (LLM_TIMEOUT_MS): a single idle timer, armed before the request and re-armed on every
 * chunk (reasoning chunks count: the upstream is alive), paused while the consumer holds a delta so a
 * slow reader is not blamed on the provider.
 */
import { Readable } from "node:stream";
import { createParser } from "eventsource-parser";
import { takeAnswerBody, type AnswerBody } from "./http-fetch";
import { LlmError, kindForStatus, safeErrorCode, type LlmErrorKind } from "./errors";
import type { LlmEvent, LlmMessage, LlmUsage } from "@/lib/shared/llm/types";
import type { ToolCall } from "@/lib/shared/llm/tools";

/** The fields we read from a chunk; both SDKs' chunk types satisfy it. */
export interface ChunkLike {
  choices?: Array<{
    delta?: { content?: string | null; tool_calls?: ToolCallPieceLike[] | null } | null;
    finish_reason?: string | null;
  }>;
  usage?: UsageLike | null;
  /** Groq reports usage here on the last chunk. */
  x_groq?: { usage?: UsageLike | null } | null;
}

/** One streamed piece of a function call (OpenAI `delta.tool_calls[]`): pieces of one call share its `index`. */
export interface ToolCallPieceLike {
  index?: number | null;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

interface UsageLike {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
}

/** The SDK's error classes, so errors are recognised by class rather than by message. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

export interface ProtocolStreamOptions {
  /** Provider name for error details ("groq", "openai-compatible"). */
  provider: string;
  /** LLM_TIMEOUT_MS: longest wait for the next chunk, including the first. */
  timeoutMs: number;
  signal?: AbortSignal;
  messages: LlmMessage[];
  errors: SdkErrorClasses;
  /**
   * Start the request; must pass `signal` to its fetch so aborting it cancels the HTTP request. Yields
   * chunks one by one (an SDK's stream) or in batches (the chunks of one network read).
   */
  open: (signal: AbortSignal) => Promise<AsyncIterable<ChunkLike | ChunkLike[]>>;
}

/**
 * Run one streamed completion and translate it into LlmEvents.
 * @throws LlmError of every kind listed in errors.ts
 */
export async function* streamOpenAiProtocol(opts: ProtocolStreamOptions): AsyncGenerator<LlmEvent> {
  const { signal, timeoutMs, provider } = opts;
  if (signal?.aborted) throw new LlmError("aborted", { provider });

  const controller = new AbortController();
  let stopReason: "timeout" | "aborted" | undefined;
  const onCallerAbort = () => {
    stopReason ??= "aborted";
    controller.abort();
  };
  signal?.addEventListener("abort", onCallerAbort, { once: true });

  // One timer for the whole stream, re-armed with refresh() (a new setTimeout per chunk was a visible
  // part of a turn's CPU). While paused, its firing only re-arms it.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let paused = false;
  const arm = () => {
    paused = false;
    if (timer) timer.refresh();
    else
      timer = setTimeout(() => {
        if (paused) {
          timer!.refresh();
          return;
        }
        stopReason ??= "timeout";
        controller.abort();
      }, timeoutMs);
  };
  const pause = () => {
    paused = true;
  };

  let opened = false;
  let finished = false;
  let finishReason: string | undefined;
  // Function calls by their stream index, joined piece by piece; made only when a chunk carries one.
  let calls: ToolCall[] | undefined;
  let completed = false;
  let usage: LlmUsage | undefined;
  let completionChars = 0;

  const fail = (err: unknown): LlmError => {
    if (stopReason) return new LlmError(stopReason, { provider });
    return classifySdkError(err, opts.errors, opened, provider);
  };

  try {
    arm();
    let stream: AsyncIterable<ChunkLike | ChunkLike[]>;
    try {
      stream = await opts.open(controller.signal);
    } catch (err) {
      throw fail(err);
    }
    opened = true;
    try {
      for await (const item of stream) {
        arm();
        // The text of every chunk of one network read goes out as one delta (./openai-compatible.ts
        // sseChunks): one hop through each generator per read rather than per token.
        let text = "";
        for (const chunk of Array.isArray(item) ? item : [item]) {
          const reported = chunk.usage ?? chunk.x_groq?.usage;
          if (reported) usage = toUsage(reported);
          for (const choice of chunk.choices ?? []) {
            if (choice.finish_reason) {
              finished = true;
              finishReason = choice.finish_reason;
            }
            const piece = choice.delta?.content;
            if (piece) text += piece;
            const toolPieces = choice.delta?.tool_calls;
            if (toolPieces) joinToolCallPieces((calls ??= []), toolPieces);
          }
        }
        if (text) {
          completionChars += text.length;
          pause();
          yield { type: "delta", text };
          if (stopReason) break;
          arm();
        }
      }
    } catch (err) {
      throw fail(err);
    }
    // sseChunks (as the SDKs' Stream) ends the iteration quietly when the request is aborted, so check why it ended.
    if (stopReason) throw new LlmError(stopReason, { provider });
    if (!finished) throw new LlmError("interrupted", { provider });
    completed = true;
    for (const call of calls ?? []) if (call) yield { type: "tool_call", call };
    yield {
      type: "usage",
      usage: usage ?? {
        promptTokens: estimateTokens(opts.messages.reduce((n, m) => n + m.content.length, 0)),
        completionTokens: estimateTokens(completionChars),
        estimated: true,
      },
      finishReason,
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onCallerAbort);
    // The consumer stopped early (break/return) or we failed: release the upstream connection.
    if (!completed) controller.abort();
  }
}

/**
 * Add streamed `delta.tool_calls` pieces to `calls` (sparse, by `index`): the first piece of a call brings its id
 * and name, later ones more of its arguments' JSON text, appended as they come (OpenAI's streaming format).
 */
export function joinToolCallPieces(calls: ToolCall[], pieces: readonly ToolCallPieceLike[]): void {
  for (const piece of pieces) {
    const index = piece.index ?? 0;
    const call = (calls[index] ??= { id: "", name: "", arguments: "" });
    if (piece.id) call.id = piece.id;
    if (piece.function?.name) call.name += piece.function.name;
    if (piece.function?.arguments) call.arguments += piece.function.arguments;
    // A provider that sends no id: one the answering `role: "tool"` message can name.
    if (!call.id) call.id = `call_${index}`;
  }
}

function toUsage(u: UsageLike): LlmUsage {
  return { promptTokens: u.prompt_tokens ?? 0, completionTokens: u.completion_tokens ?? 0 };
}

function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/**
 * Translate an SDK error into an LlmError without copying the upstream's message.
 * `opened`: the HTTP response had started, so a broken connection means an interrupted stream.
 */
export function classifySdkError(
  err: unknown,
  classes: SdkErrorClasses,
  opened: boolean,
  provider: string,
): LlmError {
  if (err instanceof LlmError) return err;
  if (err instanceof classes.APIUserAbortError) return new LlmError("aborted", { provider });
  if (err instanceof classes.APIConnectionTimeoutError) return new LlmError("timeout", { provider });
  const brokenKind: LlmErrorKind = opened ? "interrupted" : "unavailable";
  if (err instanceof classes.APIConnectionError) return new LlmError(brokenKind, { provider });
  if (err instanceof classes.APIError) {
    const apiErr = err as Error & { status?: unknown; error?: unknown; code?: unknown; headers?: unknown };
    const body = (apiErr.error ?? {}) as { code?: unknown; type?: unknown; error?: { code?: unknown } };
    const code = safeErrorCode(apiErr.code) ?? safeErrorCode(body.code) ?? safeErrorCode(body.error?.code);
    if (typeof apiErr.status === "number") {
      return new LlmError(kindForStatus(apiErr.status), {
        provider,
        status: apiErr.status,
        code,
        retryAfterSeconds: retryAfter(apiErr.headers),
      });
    }
    // An error event inside the SSE stream (no HTTP status).
    return new LlmError(brokenKind, { provider, code });
  }
  // Undici's "terminated" TypeError, a JSON parse error on a half-sent chunk, and the like.
  return new LlmError(brokenKind, { provider });
}

function retryAfter(headers: unknown): number | undefined {
  if (!headers || typeof (headers as Headers).get !== "function") return undefined;
  const raw = (headers as Headers).get("retry-after");
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The two SDK error classes sseChunks throws: both SDKs (Stainless-made) construct them alike. */
export interface SseErrorClasses {
  APIError: new (status: undefined, error: object, message: undefined, headers: Headers) => Error;
  APIConnectionError: new (options: { message: string }) => Error;
}

/**
 * The chunks of a chat-completions SSE response: the request is the SDK's and an HTTP
 * error status becomes its APIError (./sdk-request.ts), but the body is parsed here with eventsource-parser, one
 * pass per network read, instead of by the SDK's Stream (its chunk and line decoders re-copy the
 * buffer for every event and add several async-generator hops per chunk: 19% of a visitor request's
 * CPU in bench/perf's profile). The body is read as the socket's Node stream (./http-fetch.ts
 * takeAnswerBody: no Web stream per turn); a Response from elsewhere through its Web body.
 * The chunks of one network read are yielded together, as one array (one generator hop per read, not
 * per token). Same outcomes as the SDK's Stream: `[DONE]` ends it; a chunk carrying `error` throws the
 * SDK's APIError (no status: an error inside the stream); an abort ends it quietly (the caller knows why
 * it aborted); a broken body or unparsable chunk throws.
 */
export async function* sseChunks(response: Response, signal: AbortSignal, errors: SseErrorClasses): AsyncGenerator<ChunkLike[]> {
  const body = takeAnswerBody(response) ?? webAnswerBody(response);
  if (!body) throw new errors.APIConnectionError({ message: "The response has no body." });
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
        if (data && data.error) failure = new errors.APIError(undefined, data.error as object, undefined, response.headers);
        else ready.push(data);
      } catch (error) {
        failure = error;
      }
    },
  });
  body.source.setEncoding("utf8");
  try {
    try {
      // Stopping early must not destroy the socket: release() lets the rest arrive for the keep-alive reuse.
      for await (const text of body.source.iterator({ destroyOnReturn: false }) as AsyncIterable<string>) {
        parser.feed(text);
        const batch = ready;
        ready = [];
        if (batch.length) yield batch;
        if (failure) throw failure;
        if (done) return;
      }
    } catch (error) {
      if (signal.aborted) return;
      throw error;
    }
    // The end of the body ends the last event even without its blank line.
    parser.feed("\n\n");
    if (ready.length) yield ready;
    if (failure) throw failure;
  } finally {
    // Release the connection: drop whatever the provider still sends after [DONE] or a failure.
    body.release();
  }
}

/** A Response not made by ./http-fetch.ts: its Web body as a Node stream. */
function webAnswerBody(response: Response): AnswerBody | undefined {
  if (!response.body) return undefined;
  const source = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>);
  return { source, release: () => source.destroy() };
}
