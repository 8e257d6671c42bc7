import type http from "node:http";
import { PROTOCOL, bytesToHex } from "ehbp";
import { z } from "@/lib/shared/zod";
import { USAGE_METRICS_HEADER, formatUsageMetrics } from "../lib/server/confidential/usage-metrics";
import type { citeSources } from "./enclave-search";

/**
 * The development enclave's OpenAI-compatible chat completion (./enclave.ts decrypts the request, this writes
 * the answer through its sealer): the request's shape, and the answer as one JSON body or as Server-Sent Events.
 */

export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
const WORDS_PER_CHUNK = 3;

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1).max(200).regex(/^[\w.:/-]+$/),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(["system", "user", "assistant"]),
        // A string, or OpenAI content parts: text and images, as a vision model takes them.
        content: z.union([
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
      }),
    )
    .min(1)
    .max(10_000),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).optional(),
  web_search_options: z.looseObject({}).optional(),
  pii_check_options: z.looseObject({}).optional(),
});

/** What the development enclave answers one chat completion with, before sealing. */
interface Completion {
  request: z.infer<typeof chatRequestSchema>;
  sealer: (text: string) => Promise<Uint8Array>;
  nonce: Uint8Array;
  wantsUsage: boolean;
  answer: string;
  /** The router's web-search markers, sent before the answer. */
  markers: string;
  annotations: ReturnType<typeof citeSources>["annotations"];
  promptChars: number;
  chunkDelayMs: number;
}

/** Write a sealed chat completion: one JSON body, or Server-Sent Events in word chunks with usage in a trailer. */
export async function sendCompletion(res: http.ServerResponse, { request, sealer, nonce, wantsUsage, answer, markers, annotations, promptChars, chunkDelayMs }: Completion): Promise<void> {
  const promptTokens = Math.ceil(promptChars / 4);
  const completionTokens = Math.ceil(answer.length / 4);
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  const usageValue = formatUsageMetrics({ promptTokens, completionTokens, totalTokens: usage.total_tokens, model: request.model });
  const id = `chatcmpl-dev-${bytesToHex(crypto.getRandomValues(new Uint8Array(8)))}`;
  const created = Math.floor(Date.now() / 1000);

  if (!request.stream) {
    const headers: http.OutgoingHttpHeaders = { "Content-Type": "application/json", [PROTOCOL.RESPONSE_NONCE_HEADER]: bytesToHex(nonce) };
    if (wantsUsage) headers[USAGE_METRICS_HEADER] = usageValue;
    res.writeHead(200, headers);
    res.end(
      await sealer(
        JSON.stringify({
          id,
          object: "chat.completion",
          created,
          model: request.model,
          choices: [{ index: 0, message: { role: "assistant", content: markers + answer, annotations: annotations }, finish_reason: "stop" }],
          usage,
        }),
      ),
    );
    return;
  }

  const closed = new AbortController();
  res.on("close", () => closed.abort());
  const headers: http.OutgoingHttpHeaders = {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-store",
    [PROTOCOL.RESPONSE_NONCE_HEADER]: bytesToHex(nonce),
  };
  if (wantsUsage) headers.Trailer = USAGE_METRICS_HEADER;
  res.writeHead(200, headers);
  const event = (data: unknown) => sealer(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: request.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  res.write(await event(chunk({ role: "assistant", content: "" }, null)));
  if (markers) res.write(await event(chunk({ content: markers }, null)));
  for (const piece of chunkWords(answer, WORDS_PER_CHUNK)) {
    if (chunkDelayMs > 0) await new Promise((r) => setTimeout(r, chunkDelayMs));
    if (closed.signal.aborted) return;
    res.write(await event(chunk({ content: piece }, null)));
  }
  if (annotations.length) res.write(await event(chunk({ annotations: annotations }, null)));
  res.write(await event(chunk({}, "stop")));
  if (request.stream_options?.include_usage) {
    res.write(await event({ id, object: "chat.completion.chunk", created, model: request.model, choices: [], usage }));
  }
  res.write(await event("[DONE]"));
  if (wantsUsage) res.addTrailers({ [USAGE_METRICS_HEADER]: usageValue });
  res.end();
}

/** Split into pieces of `n` words, each keeping its trailing whitespace (same pacing as the development responder). */
function chunkWords(text: string, n: number): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += n) chunks.push(words.slice(i, i + n).join(""));
  return chunks;
}
