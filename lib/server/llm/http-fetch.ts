import "server-only";
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { LookupFunction } from "node:net";
import zlib from "node:zlib";

/**
 * A `fetch` over node:http keep-alive for the LLM SDKs (docs/performance.md "Custom server"); a 2xx Response's
 * body is taken with takeAnswerBody. Redirects are not followed.
 */
export function createHttpFetch({ idleMs = 4_000, keepAlive = true, lookup }: { idleMs?: number; keepAlive?: boolean; lookup?: LookupFunction } = {}): typeof fetch {
  // Node's Agent applies a server's shorter Keep-Alive hint only below its own `timeout`.
  const agents = {
    "http:": new http.Agent({ keepAlive, timeout: idleMs }),
    "https:": new https.Agent({ keepAlive, timeout: idleMs }),
  };
  return (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === "string" ? new URL(input) : input instanceof URL ? input : null;
    const body = init.body;
    const bytes = typeof body === "string" || body instanceof Uint8Array ? body : body instanceof ArrayBuffer ? new Uint8Array(body) : body == null ? null : undefined;
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || bytes === undefined) return fetch(input, init);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw abortError();

    const given = init.headers;
    const headers = given && !(given instanceof Headers) && !Array.isArray(given) ? lowerCaseKeys(given) : headerRecord(given);
    if (bytes !== null) headers["content-length"] = String(Buffer.byteLength(bytes));
    const transport = url.protocol === "https:" ? https : http;
    const agent = agents[url.protocol as "http:" | "https:"];

    return new Promise<Response>((resolve, reject) => {
      const send = (retriesLeft: number) => {
        const request = transport.request(url, { method: init.method ?? "GET", headers, agent, lookup });
        let done = false;
        const onAbort = () => {
          request.destroy(abortError());
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        const settle = () => signal?.removeEventListener("abort", onAbort);
        request.on("error", (error: NodeJS.ErrnoException) => {
          if (done) return;
          done = true;
          settle();
          // A kept-alive connection closed as this request took it: nothing was answered, so send again.
          if (request.reusedSocket && error.code === "ECONNRESET" && !signal?.aborted && retriesLeft > 0) return send(retriesLeft - 1);
          reject(signal?.aborted ? abortError() : Object.assign(new TypeError("fetch failed"), { cause: error }));
        });
        request.once("response", (response) => {
          done = true;
          toResponse(response, signal, settle).then(resolve, reject);
        });
        request.end(bytes ?? undefined);
      };
      send(STALE_CONNECTION_RETRIES);
    });
  }) as typeof fetch;
}

const STALE_CONNECTION_RETRIES = 3;

export function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init).forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

function lowerCaseKeys(record: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in record) headers[name.toLowerCase()] = record[name]!;
  return headers;
}

export const llmFetch = createHttpFetch();

export interface AnswerBody {
  readonly source: Readable;
  /** Done reading: the rest is drained for keep-alive reuse, cut after a second. */
  release(): void;
}

const answerBodies = new WeakMap<Response, AnswerBody>();

/** A createHttpFetch 2xx Response's body, once; undefined otherwise. */
export function takeAnswerBody(response: Response): AnswerBody | undefined {
  const body = answerBodies.get(response);
  answerBodies.delete(response);
  return body;
}

/** A Response's body, at most `maxBytes`; `cut` when it was longer. @throws the stream's error */
export async function readBodyCapped(response: Response, maxBytes: number): Promise<{ bytes: Buffer; cut: boolean }> {
  const answer = takeAnswerBody(response);
  const source = answer?.source ?? (response.body ? Readable.fromWeb(response.body as NodeReadableStream) : null);
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  try {
    for await (const chunk of (source ?? []) as AsyncIterable<Buffer>) {
      if (size + chunk.byteLength > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        size = maxBytes;
        cut = true;
        break;
      }
      size += chunk.byteLength;
      chunks.push(chunk);
    }
  } finally {
    if (cut || !answer) source?.destroy();
    answer?.release();
  }
  return { bytes: Buffer.concat(chunks, size), cut };
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const ERROR_BODY_MAX_BYTES = 64 * 1024;

async function toResponse(response: http.IncomingMessage, signal: AbortSignal | undefined, settle: () => void): Promise<Response> {
  const status = response.statusCode ?? 502;
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const init = { status, statusText: response.statusMessage, headers };
  if (NULL_BODY.has(status)) {
    response.resume();
    settle();
    return new Response(null, init);
  }
  const encoding = (response.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip" ? zlib.createGunzip() : encoding === "deflate" ? zlib.createInflate() : encoding === "br" ? zlib.createBrotliDecompress() : null;
  if (decoder) {
    response.pipe(decoder);
    response.once("error", (error) => decoder.destroy(error));
  }
  const source: Readable = decoder ?? response;
  if (status < 200 || status > 299) {
    const text = await readError(source, response, signal, settle);
    return new Response(text, init);
  }
  source.once("end", settle);
  source.once("error", settle);
  const answer = new Response(null, init);
  let released = false;
  answerBodies.set(answer, {
    source,
    release: () => {
      if (released) return;
      released = true;
      settle();
      if (response.complete) return;
      source.removeAllListeners("data");
      source.on("error", () => undefined);
      source.resume();
      const timer = setTimeout(() => response.destroy(), 1000);
      timer.unref();
      response.once("end", () => clearTimeout(timer));
    },
  });
  return answer;
}

function readError(source: Readable, response: http.IncomingMessage, signal: AbortSignal | undefined, settle: () => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    source.on("data", (chunk: Buffer) => {
      if (size >= ERROR_BODY_MAX_BYTES) return;
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= ERROR_BODY_MAX_BYTES) {
        response.destroy();
        finish();
      }
    });
    const finish = () => {
      settle();
      resolve(Buffer.concat(chunks).subarray(0, ERROR_BODY_MAX_BYTES).toString("utf8"));
    };
    source.once("end", finish);
    response.once("close", finish);
    source.once("error", (error) => {
      settle();
      if (size >= ERROR_BODY_MAX_BYTES) return;
      reject(signal?.aborted ? abortError() : Object.assign(new TypeError("terminated"), { cause: error }));
    });
  });
}

function abortError(): DOMException {
  return new DOMException("This operation was aborted", "AbortError");
}
