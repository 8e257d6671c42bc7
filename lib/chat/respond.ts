import "server-only";
import { getLlmProvider, LlmError, type LlmEvent } from "@/lib/llm";
import { AppError } from "@/lib/errors";
import { beginTurn, isShutdownAbort, SHUTDOWN_MESSAGE } from "@/lib/lifecycle";
import type { ContextReport } from "@/lib/llm";
import type { ChatMessage, PreparedTurn } from "./turn";
import { logger } from "@/lib/log";

/**
 * The chat call's answer (docs/product.md §7): the whole conversation and the chat id (null when not saved); plus
 * `context` (what the context budget left out). A PDF's text is never echoed: the browser extracted it.
 */
export interface ChatResult {
  messages: ChatMessage[];
  chat_id: string | null;
  context: ContextReport;
}

/**
 * Run a prepared turn against the configured LLM provider and answer the spec's JSON, or, when the
 * request accepts `text/event-stream`, Server-Sent Events:
 *   `event: delta` `{ "text": "..." }` for each piece of the answer,
 *   `event: done`  `{ messages, chat_id, context }` once,
 *   `event: error` `{ "error": "...", "status": 502 }` if the provider fails after streaming began.
 * The provider is awaited for its first token before the response starts, so a provider that fails at
 * once gets a proper HTTP status rather than a 200 stream with an error in it.
 * The request's abort signal is passed to the provider: a client that disconnects stops generation.
 * `chatId` is echoed as the answer's `chat_id` (null for visitors): the server stores nothing, the browser
 * seals and saves a saved chat's turn itself (POST /api/ns/chat_save).
 * The turn is registered in lib/lifecycle.ts from the provider call until its answer is complete, so a
 * graceful shutdown waits for it (or, past the grace period, aborts it: `error` event, status 503).
 * @throws AppError 503 while the process shuts down; provider failures before the first token.
 */
export async function respondToTurn(request: Request, turn: PreparedTurn, chatId: string | null): Promise<Response> {
  const inFlight = beginTurn(request.signal);
  try {
    return await respond(request, inFlight, turn, chatId);
  } catch (error) {
    inFlight.end();
    throw error;
  }
}

async function respond(
  request: Request,
  inFlight: ReturnType<typeof beginTurn>,
  turn: PreparedTurn,
  chatId: string | null,
): Promise<Response> {
  const signal = inFlight.signal;
  const provider = getLlmProvider(turn.model.code);
  const events = provider
    .stream({ model: turn.providerModel, messages: turn.modelMessages, signal })
    [Symbol.asyncIterator]();

  let first: IteratorResult<LlmEvent>;
  try {
    first = await events.next();
  } catch (error) {
    throw toAppError(error, signal);
  }

  const complete = (text: string): ChatResult => ({
    messages: [...turn.history, { role: "assistant", content: text }],
    chat_id: chatId,
    context: turn.context,
  });

  const wantsStream = (request.headers.get("accept") ?? "").includes("text/event-stream");
  if (!wantsStream) {
    let text = deltaText(first);
    try {
      for (let next = first; !next.done; ) {
        next = await events.next();
        text += deltaText(next);
      }
    } catch (error) {
      throw toAppError(error, signal);
    }
    const result = complete(text);
    inFlight.end();
    // A message is in the body: no cache (browser, proxy or CDN) may keep it (docs/issues.md #10).
    return Response.json(result, { headers: { "Cache-Control": "private, no-store" } });
  }

  const encoder = new TextEncoder();
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, event: string, data: unknown) =>
    controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let text = "";
      // Pieces that arrive in one event-loop turn (a provider often packs several tokens into one TCP
      // read) go out as one `delta` event: one write instead of one per token (bench/perf).
      let pending = "";
      let flushQueued = false;
      const flush = () => {
        flushQueued = false;
        if (!pending) return;
        const piece = pending;
        pending = "";
        try {
          send(controller, "delta", { text: piece });
        } catch {
          // The client went away; the loop below notices through the abort signal.
        }
      };
      try {
        for (let next = first; !next.done; next = await events.next()) {
          const piece = deltaText(next);
          if (piece) {
            text += piece;
            pending += piece;
            // The first token goes out at once; the rest once per turn.
            if (next === first) flush();
            else if (!flushQueued) {
              flushQueued = true;
              setImmediate(flush);
            }
          }
        }
        flush();
        send(controller, "done", complete(text));
      } catch (error) {
        if (!request.signal.aborted) {
          const apiError = toAppError(error, signal);
          flush();
          send(controller, "error", { error: apiError.message, status: apiError.status });
        }
      } finally {
        inFlight.end();
        try {
          controller.close();
        } catch {
          // The client went away; nothing is left to close.
        }
      }
    },
    async cancel() {
      await events.return?.();
    },
  });

  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "private, no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}

function deltaText(result: IteratorResult<LlmEvent>): string {
  return !result.done && result.value.type === "delta" ? result.value.text : "";
}

/** Provider failures become 5xx answers with a plain sentence; no provider text reaches the client. */
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

