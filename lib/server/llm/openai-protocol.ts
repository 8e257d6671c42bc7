// One idle timer (LLM_TIMEOUT_MS), re-armed per chunk, paused while the consumer holds a delta.
import { Readable } from "node:stream";
import { createParser } from "eventsource-parser";
import { takeAnswerBody, type AnswerBody } from "./http-fetch";
import { LlmError, kindForStatus, safeErrorCode, type LlmErrorKind } from "./errors";
import type { LlmEvent, LlmMessage, LlmUsage } from "@/lib/shared/llm/types";
import type { ToolCall } from "@/lib/shared/llm/tools";

export interface ChunkLike {
  choices?: Array<{
    delta?: { content?: string | null; tool_calls?: ToolCallPieceLike[] | null } | null;
    finish_reason?: string | null;
  }>;
  usage?: UsageLike | null;
  x_groq?: { usage?: UsageLike | null } | null;
}

export interface ToolCallPieceLike {
  index?: number | null;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

interface UsageLike {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
}

export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

export interface ProtocolStreamOptions {
  provider: string;
  timeoutMs: number;
  signal?: AbortSignal;
  messages: LlmMessage[];
  errors: SdkErrorClasses;
  open: (signal: AbortSignal) => Promise<AsyncIterable<ChunkLike | ChunkLike[]>>;
}

/** Run one streamed completion as LlmEvents. @throws LlmError */
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
    // sseChunks ends quietly when the request is aborted, so check why it ended.
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
    if (!completed) controller.abort();
  }
}

export function joinToolCallPieces(calls: ToolCall[], pieces: readonly ToolCallPieceLike[]): void {
  for (const piece of pieces) {
    const index = piece.index ?? 0;
    const call = (calls[index] ??= { id: "", name: "", arguments: "" });
    if (piece.id) call.id = piece.id;
    if (piece.function?.name) call.name += piece.function.name;
    if (piece.function?.arguments) call.arguments += piece.function.arguments;
    if (!call.id) call.id = `call_${index}`;
  }
}

function toUsage(u: UsageLike): LlmUsage {
  return { promptTokens: u.prompt_tokens ?? 0, completionTokens: u.completion_tokens ?? 0 };
}

function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** An SDK error as an LlmError, without the upstream's message. */
function classifySdkError(
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
    return new LlmError(brokenKind, { provider, code });
  }
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

export interface SseErrorClasses {
  APIError: new (status: undefined, error: object, message: undefined, headers: Headers) => Error;
  APIConnectionError: new (options: { message: string }) => Error;
}

/** A chat-completions SSE body's chunks, one array per network read; outcomes as the SDK's Stream. */
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
      // release() lets the rest arrive for keep-alive reuse.
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
    parser.feed("\n\n");
    if (ready.length) yield ready;
    if (failure) throw failure;
  } finally {
    body.release();
  }
}

function webAnswerBody(response: Response): AnswerBody | undefined {
  if (!response.body) return undefined;
  const source = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>);
  return { source, release: () => source.destroy() };
}
