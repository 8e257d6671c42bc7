/**
 * A minimal HTTP relay for the confidential tests: forwards to the development enclave like Hush's relay
 * would, and can change bytes on the way (to prove that every change fails closed). It records what it saw so
 * tests can check that no plaintext crossed it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface TamperingRelayOptions {
  /** Change the request body before forwarding. */
  request?: (body: Buffer) => Buffer;
  /** Change request headers before forwarding. */
  requestHeaders?: (headers: Headers) => void;
  /** Change the response body before returning it. */
  response?: (body: Buffer) => Buffer;
  /** Change response headers before returning them. */
  responseHeaders?: (headers: Headers) => void;
}

export interface TamperingRelay {
  url: string;
  /** Every request and response body that crossed the relay, as received. */
  seen: Buffer[];
  options: TamperingRelayOptions;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "host", "trailer"]);

/** Start a relay in front of `target` (an origin such as `http://127.0.0.1:1234`). */
export async function startTamperingRelay(target: string): Promise<TamperingRelay> {
  const seen: Buffer[] = [];
  const options: TamperingRelayOptions = {};
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Buffer = Buffer.concat(chunks);
    seen.push(body);
    if (options.request) body = options.request(body);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string" && !HOP_BY_HOP.has(name)) headers.set(name, value);
    }
    options.requestHeaders?.(headers);
    const upstream = await fetch(new URL(req.url ?? "/", target), {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(body),
    });
    let answer: Buffer = Buffer.from(await upstream.arrayBuffer());
    seen.push(answer);
    if (options.response) answer = options.response(answer);
    const outHeaders = new Headers();
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) outHeaders.set(name, value);
    });
    options.responseHeaders?.(outHeaders);
    res.writeHead(upstream.status, Object.fromEntries(outHeaders.entries()));
    res.end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    options,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Flip one bit of `buffer` at `index` (negative counts from the end); returns a copy. */
export function flipByte(buffer: Buffer, index: number): Buffer {
  const copy = Buffer.from(buffer);
  const i = index < 0 ? copy.length + index : index;
  copy[i] = copy[i]! ^ 0x01;
  return copy;
}

/** Content of an OpenAI-style SSE stream: the concatenated `delta.content` of every chunk. */
export function sseContent(text: string): { content: string; done: boolean; usage?: unknown } {
  let content = "";
  let done = false;
  let usage: unknown;
  for (const block of text.split("\n\n")) {
    const line = block.trim();
    if (!line.startsWith("data: ")) continue;
    const data = line.slice("data: ".length);
    if (data === "[DONE]") {
      done = true;
      continue;
    }
    const event = JSON.parse(data) as { choices: { delta?: { content?: string } }[]; usage?: unknown };
    for (const choice of event.choices) content += choice.delta?.content ?? "";
    if (event.usage) usage = event.usage;
  }
  return { content, done, usage };
}
