import type http from "node:http";
import { PROTOCOL, bytesToHex } from "ehbp";
import { z } from "@/lib/shared/zod";
import { USAGE_METRICS_HEADER, formatUsageMetrics } from "../lib/server/confidential/usage-metrics";

/** The development enclave's OpenAI-compatible chat completion, as one JSON body or Server-Sent Events. */

export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1).max(200).regex(/^[\w.:/-]+$/),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(["system", "user", "assistant", "tool"]),
        // A string or OpenAI content parts; null beside tool_calls.
        content: z.union([
          z.null(),
          z.string().max(MAX_REQUEST_BYTES),
          z
            .array(
              z.discriminatedUnion("type", [
                z.looseObject({ type: z.literal("text"), text: z.string().max(MAX_REQUEST_BYTES) }),
                z.looseObject({ type: z.literal("image_url"), image_url: z.looseObject({ url: z.string().max(MAX_REQUEST_BYTES) }) }),
              ]),
            )
            .max(100),
        ]),
        tool_calls: z
          .array(z.looseObject({ id: z.string().max(200), type: z.literal("function"), function: z.looseObject({ name: z.string().max(100), arguments: z.string().max(MAX_REQUEST_BYTES) }) }))
          .max(32)
          .optional(),
        tool_call_id: z.string().max(200).optional(),
      }),
    )
    .min(1)
    .max(10_000),
  tools: z
    .array(z.looseObject({ type: z.literal("function"), function: z.looseObject({ name: z.string().min(1).max(100), description: z.string().max(2_000).optional(), parameters: z.looseObject({}).optional() }) }))
    .max(16)
    .optional(),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).optional(),
  web_search_options: z.looseObject({}).optional(),
  pii_check_options: z.looseObject({}).optional(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;

export interface TurnUsage {
  promptTokens: number;
  completionTokens: number;
}

/** Content pieces in order, then exactly one of `finish`, `toolCalls` or `fail`. */
export interface CompletionWriter {
  content(text: string): Promise<void>;
  annotations(list: readonly unknown[]): Promise<void>;
  finish(usage: TurnUsage): Promise<void>;
  toolCalls(calls: readonly { id: string; name: string; arguments: string }[], usage: TurnUsage): Promise<void>;
  /** End with an error event (stream) or a sealed 502 (JSON). `message` must hold nothing of the conversation. */
  fail(message: string, usage: TurnUsage): Promise<void>;
  readonly closed: AbortSignal;
}

interface WriterInit {
  request: ChatRequest;
  sealer: (text: string) => Promise<Uint8Array>;
  nonce: Uint8Array;
  wantsUsage: boolean;
}

/** Headers go out now, so the relay's header timeout does not run while the enclave searches. */
export function openCompletion(res: http.ServerResponse, { request, sealer, nonce, wantsUsage }: WriterInit): CompletionWriter {
  const closed = new AbortController();
  res.on("close", () => closed.abort());
  const id = `chatcmpl-dev-${bytesToHex(crypto.getRandomValues(new Uint8Array(8)))}`;
  const created = Math.floor(Date.now() / 1000);
  const usageOf = (u: TurnUsage) => ({ prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.promptTokens + u.completionTokens });
  const usageValue = (u: TurnUsage) =>
    formatUsageMetrics({ promptTokens: u.promptTokens, completionTokens: u.completionTokens, totalTokens: u.promptTokens + u.completionTokens, model: request.model });

  if (!request.stream) {
    let text = "";
    const cited: unknown[] = [];
    const end = async (status: number, body: unknown, usage: TurnUsage) => {
      if (res.destroyed) return;
      const headers: http.OutgoingHttpHeaders = { "Content-Type": "application/json", [PROTOCOL.RESPONSE_NONCE_HEADER]: bytesToHex(nonce) };
      if (wantsUsage) headers[USAGE_METRICS_HEADER] = usageValue(usage);
      res.writeHead(status, headers);
      res.end(await sealer(JSON.stringify(body)));
    };
    return {
      closed: closed.signal,
      content: async (piece) => void (text += piece),
      annotations: async (list) => void cited.push(...list),
      finish: (usage) =>
        end(
          200,
          {
            id,
            object: "chat.completion",
            created,
            model: request.model,
            choices: [{ index: 0, message: { role: "assistant", content: text, annotations: cited }, finish_reason: "stop" }],
            usage: usageOf(usage),
          },
          usage,
        ),
      toolCalls: (calls, usage) =>
        end(
          200,
          {
            id,
            object: "chat.completion",
            created,
            model: request.model,
            choices: [{ index: 0, message: { role: "assistant", content: text || null, tool_calls: calls.map(wireCall) }, finish_reason: "tool_calls" }],
            usage: usageOf(usage),
          },
          usage,
        ),
      fail: (message, usage) => end(502, { error: { message, type: "server_error" } }, usage),
    };
  }

  const headers: http.OutgoingHttpHeaders = {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-store",
    [PROTOCOL.RESPONSE_NONCE_HEADER]: bytesToHex(nonce),
  };
  if (wantsUsage) headers.Trailer = USAGE_METRICS_HEADER;
  res.writeHead(200, headers);
  // Frames are sealed in sequence order.
  let queue: Promise<void> = Promise.resolve();
  const write = (data: unknown) => {
    queue = queue.then(async () => {
      const frame = await sealer(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
      if (!res.destroyed) res.write(frame);
    });
    return queue;
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: request.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const end = async (usage: TurnUsage) => {
    await write("[DONE]");
    if (res.destroyed) return;
    if (wantsUsage) res.addTrailers({ [USAGE_METRICS_HEADER]: usageValue(usage) });
    res.end();
  };
  void write(chunk({ role: "assistant", content: "" }, null));
  return {
    closed: closed.signal,
    content: (piece) => (piece ? write(chunk({ content: piece }, null)) : queue),
    annotations: (list) => (list.length ? write(chunk({ annotations: list }, null)) : queue),
    async finish(usage) {
      await write(chunk({}, "stop"));
      if (request.stream_options?.include_usage) await write({ id, object: "chat.completion.chunk", created, model: request.model, choices: [], usage: usageOf(usage) });
      await end(usage);
    },
    async toolCalls(calls, usage) {
      await write(chunk({ tool_calls: calls.map((c, index) => ({ index, ...wireCall(c) })) }, null));
      await write(chunk({}, "tool_calls"));
      if (request.stream_options?.include_usage) await write({ id, object: "chat.completion.chunk", created, model: request.model, choices: [], usage: usageOf(usage) });
      await end(usage);
    },
    async fail(message, usage) {
      await write({ error: { message, type: "server_error" } });
      await end(usage);
    },
  };
}

const wireCall = (c: { id: string; name: string; arguments: string }) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.arguments } });

export function chunkWords(text: string, n: number): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += n) chunks.push(words.slice(i, i + n).join(""));
  return chunks;
}
