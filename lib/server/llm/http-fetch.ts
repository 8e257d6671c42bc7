import "server-only";
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { LookupFunction } from "node:net";
import zlib from "node:zlib";

/**
 * The `fetch` of the LLM providers' chat stream (docs/performance.md "Custom server"):
 * the request the SDK (openai, groq-sdk) made, captured once and sent per turn by ./sdk-request.ts, over
 * node:http's keep-alive connections. The SDK's APIError is made from an error status there; the
 * provider's idle timer (./openai-protocol.ts) times out the wait; this only moves bytes.
 *
 * Why not the global fetch: in the server process it is Next's patched fetch (tracing and its data
 * cache around undici), and undici's own Request/Response machinery; together they were about a
 * seventh of a visitor turn's CPU in bench/perf's profile (2026-11-26). Why the body of a 2xx answer is
 * not a Web stream: a ReadableStream per turn, and a promise per read through it, were the next largest
 * part (2026-11-27). sseChunks (./openai-protocol.ts) takes its body as the socket's Node stream with
 * `takeAnswerBody`; so a 2xx Response from here has a null body. An error status's body (read for the
 * SDK's APIError) is read whole first, up to ERROR_BODY_MAX_BYTES, and given as a normal body.
 *
 * Keep-alive, as undici (the global fetch) keeps it: an idle connection is closed after the server's
 * `Keep-Alive: timeout` hint less a second, and after `idleMs` (undici's default, 4 s) at most; and a
 * request whose reused connection the server had closed meanwhile (ECONNRESET before any answer) is sent
 * again on another connection, as Node's documentation of `request.reusedSocket` advises. Without both,
 * a model server closing an idle connection just as a turn reused it failed that turn with a 502
 * (the load test through nginx, 1 turn in 14,135, 2026-11-27).
 *
 * Same outcomes as fetch where the SDKs look: an abort (the provider's timer or the caller) rejects with
 * a DOMException named AbortError; a connection failure rejects with a TypeError ("fetch failed", its
 * cause the socket error). Differences: redirects are not followed (an LLM API does not redirect a POST;
 * the 3xx becomes the SDK's error for its status), and a body that is not a string or bytes (none of the
 * chat calls) goes to the global fetch.
 * @param options.idleMs the longest an idle connection is kept, in ms (4000, undici's default)
 * @param options.keepAlive false: a connection per request, closed after it (a page read, lib/server/read-page)
 * @param options.lookup the connections' name resolution (node:net's `lookup`): a page read pins it to the
 *   address it checked
 */
export function createHttpFetch({ idleMs = 4_000, keepAlive = true, lookup }: { idleMs?: number; keepAlive?: boolean; lookup?: LookupFunction } = {}): typeof fetch {
  // Node's Agent applies a server's shorter hint only below its own `timeout`: without one, an idle
  // connection would be kept until the server closes it, and the next turn would race that close.
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
    // A plain record (./sdk-request.ts): no Headers object per turn.
    const headers = given && !(given instanceof Headers) && !Array.isArray(given) ? lowerCaseKeys(given) : headerRecord(given);
    if (bytes !== null) headers["content-length"] = String(Buffer.byteLength(bytes));
    const transport = url.protocol === "https:" ? https : http;
    const agent = agents[url.protocol as "http:" | "https:"];

    return new Promise<Response>((resolve, reject) => {
      const send = (retriesLeft: number) => {
        const request = transport.request(url, { method: init.method ?? "GET", headers, agent, lookup });
        /** Answered, or failed once (a request emits no second error, but one must not be sent twice). */
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
          // The server closed a kept-alive connection as this request took it: nothing was answered,
          // so the request goes again, on a connection the agent opens or another idle one.
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

/** How many idle connections found closed one request may go through before it fails. */
const STALE_CONNECTION_RETRIES = 3;

/** Any HeadersInit as a record with lower-case names, as node:http takes it. */
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

/** The one fetch of the LLM providers: keep-alive connections shared by every provider client. */
export const llmFetch = createHttpFetch();

/** A 2xx answer's body, as sseChunks reads it. */
export interface AnswerBody {
  /** The body's bytes (decoded when the server compressed it anyway). */
  readonly source: Readable;
  /**
   * Done reading (at the end, or stopping early): stops listening for the abort, and lets the rest of
   * the answer arrive and be dropped so the keep-alive connection is reused, cutting it after a second.
   */
  release(): void;
}

/** The bodies of 2xx Responses made here, until sseChunks takes them. */
const answerBodies = new WeakMap<Response, AnswerBody>();

/**
 * The body of a 2xx Response made by createHttpFetch (once: a second call gets undefined), or undefined
 * for any other Response (whose body is its Web stream).
 */
export function takeAnswerBody(response: Response): AnswerBody | undefined {
  const body = answerBodies.get(response);
  answerBodies.delete(response);
  return body;
}

/**
 * A Response's body, at most `maxBytes` of it (counted as it arrives, after any decoding, whatever
 * Content-Length says): a createHttpFetch answer's Node stream, or any other Response's Web stream.
 * @returns the bytes read and `cut`: true when the body was longer (its first `maxBytes` kept, the rest not read:
 *   the connection is closed)
 * @throws the stream's error (an abort, a cut connection)
 */
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

/** Statuses whose Response may not carry a body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** The most of an error answer read for the SDK's APIError (a provider's error JSON is far smaller). */
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
  // fetch decodes what it asked for; this asks for nothing, so only a server ignoring that needs it.
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
      // After the last event the rest is usually only the end of the body: read it, so the keep-alive
      // connection is reused; an answer still going after a second is cut.
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

/** An error answer's text (at most ERROR_BODY_MAX_BYTES; the rest is dropped with the connection). */
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
    // Cut off without an error event: what came is enough for the SDK's APIError, which has the status.
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
