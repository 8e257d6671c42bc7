import "server-only";
import type { ChatStreamEventData, ChatStreamEventName } from "@/lib/shared/chat/stream-events";
import { getLlmProvider, LlmError, modelCallsFunctions, type LlmEvent } from "@/lib/server/llm";
import { AppError } from "@/lib/shared/errors";
import { beginTurn, isShutdownAbort, SHUTDOWN_MESSAGE } from "@/lib/server/lifecycle";
import type { ContextReport } from "@/lib/server/llm";
import type { ChatMessage, PreparedTurn } from "./turn";
import { logger } from "@/lib/server/log";
import type { Producer } from "@/lib/server/api/response-sink";
import type { ClientExchange } from "@/lib/server/api/route";
import { searchForTurn } from "@/lib/server/search/run";
import type { WebSearchRecord } from "@/lib/shared/search/record";
import type { QuotaSubject } from "@/lib/server/quota";
import { searchToolLoop, type ServerStep, type ToolLoop, type ToolLoopEvent } from "./tool-loop";
import { signContinuation } from "./continuation";
import type { ToolCall, ToolDefinition } from "@/lib/shared/llm/tools";
import type { ContinuationStep } from "@/lib/shared/chat/turn-schema";
import type { LlmMessage } from "@/lib/shared/llm/types";

/** The chat call's answer (docs/product.md §7). */
export interface ChatResult {
  messages: ChatMessage[];
  chat_id: string | null;
  context: ContextReport;
  search?: WebSearchRecord;
}

export interface TurnSearch {
  counted: boolean;
  subject: QuotaSubject;
}

/** The device tools of a turn (docs/issues.md #50). */
export interface TurnTools {
  device: ToolDefinition[];
  subject: QuotaSubject;
  caller: string;
  resume: { turn: string; calls: number; steps: ContinuationStep[]; search: WebSearchRecord | null } | null;
}

function resumeMessages(steps: readonly ContinuationStep[]): LlmMessage[] {
  return steps.flatMap((s): LlmMessage[] => [
    { role: "assistant", content: "", tool_calls: stepCalls(s) },
    ...s.results.map((r): LlmMessage => ({ role: "tool", tool_call_id: r.tool_call_id, content: r.content })),
  ]);
}

export function stepCalls(step: ContinuationStep): ToolCall[] {
  return step.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
}

const wireCall = (c: ToolCall) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } });

const wireStep = (s: ServerStep): ContinuationStep => ({ tool_calls: s.calls.map(wireCall), results: s.results.map((r) => ({ role: "tool", ...r })) });

/**
 * Run a prepared turn: JSON, or SSE (lib/shared/chat/stream-events.ts). The first token is awaited before
 * answering, so an early failure gets a real status. @throws AppError 503 shutting down; provider failures
 */
export async function respondToTurn(
  client: ClientExchange,
  turn: PreparedTurn,
  chatId: string | null,
  search: TurnSearch | null = null,
  tools: TurnTools | null = null,
): Promise<Response> {
  const inFlight = beginTurn(client.signal);
  try {
    return await respond(client, inFlight, turn, chatId, search, tools);
  } catch (error) {
    inFlight.end();
    throw error;
  }
}

async function respond(
  client: ClientExchange,
  inFlight: ReturnType<typeof beginTurn>,
  turn: PreparedTurn,
  chatId: string | null,
  search: TurnSearch | null,
  tools: TurnTools | null,
): Promise<Response> {
  const signal = inFlight.signal;
  let messages = turn.modelMessages;
  let record: WebSearchRecord | null = null;
  const provider = getLlmProvider(turn.model.code);
  let loop: ToolLoop | null = null;
  let events: AsyncIterator<ToolLoopEvent>;
  const fn = modelCallsFunctions(turn.model.code);
  if (fn && (search || tools?.device.length || tools?.resume)) {
    loop = searchToolLoop({
      provider,
      model: turn.providerModel,
      messages,
      subject: search?.subject ?? tools!.subject,
      signal,
      question: turn.history.at(-1)?.content ?? "",
      webSearch: search !== null,
      deviceTools: tools?.device ?? [],
      ...(tools?.resume ? { resume: { calls: tools.resume.calls, messages: resumeMessages(tools.resume.steps), record: tools.resume.search } } : {}),
    });
    events = loop.events;
  } else {
    if (search) {
      try {
        ({ messages, record } = await searchForTurn({ messages, question: turn.history.at(-1)?.content ?? "", counted: search.counted, signal }));
      } catch (error) {
        throw toAppError(error, signal);
      }
    }
    events = provider
      .stream({ model: turn.providerModel, messages, signal })
      [Symbol.asyncIterator]();
  }

  let first: IteratorResult<ToolLoopEvent>;
  try {
    first = await events.next();
  } catch (error) {
    throw toAppError(error, signal);
  }

  const complete = (text: string): ChatResult => {
    const searched = loop ? loop.record() : record;
    return {
      messages: [...turn.history, { role: "assistant", content: text }],
      chat_id: chatId,
      context: turn.context,
      ...(searched ? { search: searched } : {}),
    };
  };

  const paused = (next: IteratorResult<ToolLoopEvent>) => {
    if (next.done || next.value.type !== "pause" || !tools) return null;
    const { calls, ran, step } = next.value;
    const earlier = (tools.resume?.steps ?? []).flatMap(stepCalls);
    const { token } = signContinuation({ caller: tools.caller, turn: tools.resume?.turn ?? null, step, calls: [...earlier, ...ran.flatMap((s) => s.calls), ...calls] });
    return { tool_calls: calls.map(wireCall), token, ...(ran.length ? { steps: ran.map(wireStep) } : {}), ...(search && loop ? { search: loop.record() } : {}) };
  };

  const wantsStream = (client.request.headers.get("accept") ?? "").includes("text/event-stream");
  if (!wantsStream) {
    let text = deltaText(first);
    let pause = paused(first);
    try {
      for (let next = first; !next.done; ) {
        next = await events.next();
        text += deltaText(next);
        pause ??= paused(next);
      }
    } catch (error) {
      throw toAppError(error, signal);
    }
    if (pause) {
      inFlight.end();
      return Response.json(pause, { headers: { "Cache-Control": "private, no-store" } });
    }
    const result = complete(text);
    inFlight.end();
    return Response.json(result, { headers: { "Cache-Control": "private, no-store" } });
  }

  const event = <K extends ChatStreamEventName>(name: K, data: ChatStreamEventData<K>) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

  const produce: Producer = async (sink) => {
    const stop = () => {
      loop?.stop();
      void events.return?.(undefined)?.catch(() => undefined);
    };
    if (sink.gone.aborted) stop();
    else sink.gone.addEventListener("abort", stop, { once: true });
    let text = "";
    let pause: ReturnType<typeof paused> = null;
    if (record) sink.write(event("search", record));
    let pending = "";
    let flushQueued = false;
    let room = true;
    const flush = () => {
      flushQueued = false;
      if (!pending) return;
      const piece = pending;
      pending = "";
      if (!sink.write(event("delta", { text: piece }))) room = false;
    };
    try {
      for (let next = first; !next.done; ) {
        if (loop && (next.value.type === "step" || next.value.type === "searched" || next.value.type === "read")) {
          flush();
          const step = next.value;
          const written = step.type === "step" ? event("step", step.step) : step.type === "read" ? event("read", step.read) : event("search", step.record);
          if (!sink.write(written)) room = false;
        }
        pause ??= paused(next);
        const piece = deltaText(next);
        if (piece) {
          text += piece;
          pending += piece;
          if (next === first) flush();
          else if (!flushQueued) {
            flushQueued = true;
            setImmediate(flush);
          }
        }
        if (!room) {
          await sink.ready();
          room = true;
        }
        if (sink.gone.aborted) break;
        next = await events.next();
      }
      if (!sink.gone.aborted) {
        flush();
        sink.write(pause ? event("tool_calls", pause) : event("done", complete(text)));
      }
    } catch (error) {
      if (!client.signal.aborted && !sink.gone.aborted) {
        const apiError = toAppError(error, signal);
        flush();
        sink.write(event("error", { error: apiError.message, status: apiError.status }));
      }
    } finally {
      sink.gone.removeEventListener("abort", stop);
      inFlight.end();
      sink.end();
    }
  };

  return client.stream(produce, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "private, no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}

function deltaText(result: IteratorResult<LlmEvent | ToolLoopEvent>): string {
  return !result.done && result.value.type === "delta" ? result.value.text : "";
}

/** No provider text reaches the client. */
function toAppError(error: unknown, signal: AbortSignal): AppError {
  if (error instanceof AppError) return error;
  if (isShutdownAbort(signal.reason)) return new AppError("unavailable:shutdown", SHUTDOWN_MESSAGE);
  if (error instanceof LlmError) {
    switch (error.kind) {
      case "rate_limited":
        return new AppError("unavailable:model_busy", "The model is busy right now. Please try again in a moment.");
      case "timeout":
        return new AppError("timeout:model", "The model took too long to answer. Please try again.");
      case "interrupted":
        return new AppError("upstream:model_interrupted", "The answer was cut off before it finished. Please try again.");
      case "aborted":
        return new AppError("bad_request:cancelled", "The request was cancelled.", { status: 499 });
      default:
        return modelUnavailable();
    }
  }
  logger("chat").error({ kind: error instanceof Error ? error.name : "unknown" }, "provider failed");
  return modelUnavailable();
}

const modelUnavailable = () => new AppError("upstream:model", "The model service is unavailable right now. Please try again later.");

