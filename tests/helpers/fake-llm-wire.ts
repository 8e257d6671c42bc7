import type http from "node:http";

/**
 * The OpenAI chat-completions wire pieces the fake LLM server (./fake-llm-server.ts) answers with: stream chunks,
 * usage, error bodies and plain JSON answers. No dependencies, like the server.
 */

/** The id, creation time and model every chunk of one answer shares; Groq's usage rides the last chunk. */
export class StreamContext {
  readonly id = `chatcmpl-fake-${Math.random().toString(36).slice(2, 10)}`;
  readonly created = Math.floor(Date.now() / 1000);
  constructor(
    private readonly model: string,
    private readonly groq: boolean,
  ) {}

  chunk(delta: Record<string, unknown>, finishReason: string | null = null, groqUsage?: object) {
    return {
      id: this.id,
      object: "chat.completion.chunk",
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...(this.groq && groqUsage ? { x_groq: { id: `req_fake`, usage: groqUsage } } : {}),
    };
  }

  usageChunk(usage: object) {
    return { id: this.id, object: "chat.completion.chunk", created: this.created, model: this.model, choices: [], usage };
  }
}

/** OpenAI `usage` for an answer: completion tokens at about 4 characters each. */
export function usageOf(promptTokens: number, completion: string) {
  const completionTokens = Math.ceil(completion.length / 4);
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

/** An OpenAI-style error body `{ error: { message, type, param, code } }`. */
export function errorBody(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

/** `text` in pieces of `n` words, whitespace kept: the streamed deltas. */
export function words(text: string, n: number): string[] {
  const tokens = text.match(/\S+\s*/g) ?? [text];
  const parts: string[] = [];
  for (let i = 0; i < tokens.length; i += n) parts.push(tokens.slice(i, i + n).join(""));
  return parts;
}

/** Answer `body` as JSON with `status`. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** The request body as UTF-8 text. */
export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
