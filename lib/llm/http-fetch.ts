import "server-only";
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";

/**
 * The `fetch` the LLM SDKs (openai, groq-sdk) are given (docs/issues.md #24, docs/performance.md "Custom
 * server"): the request the SDK built, sent with node:http over keep-alive connections, its answer
 * handed back as a Web Response whose body streams the socket's bytes.
 *
 * Why not the global fetch: in the server process it is Next's patched fetch (tracing and its data
 * cache around undici), and undici's own Request/Response machinery; together they were about a
 * seventh of a visitor turn's CPU in bench/perf's profile (2026-11-26). The SDKs still build the request,
 * map statuses to their errors and time out the wait for headers; this only moves bytes.
 *
 * Same outcomes as fetch where the SDKs look: an abort (the SDK's timeout or the caller) rejects with
 * a DOMException named AbortError; a connection failure rejects with a TypeError ("fetch failed", its
 * cause the socket error); a body that breaks mid-way errors the stream. Differences: redirects are
 * not followed (an LLM API does not redirect a POST; the 3xx reaches the SDK as an error status), and a
 * body that is not a string or bytes (none of the chat calls) goes to the global fetch.
 */
export function createHttpFetch(): typeof fetch {
  const agents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };
  return (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === "string" ? new URL(input) : input instanceof URL ? input : null;
    const body = init.body;
    const bytes = typeof body === "string" || body instanceof Uint8Array ? body : body instanceof ArrayBuffer ? new Uint8Array(body) : body == null ? null : undefined;
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || bytes === undefined) return fetch(input, init);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw abortError();

    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    if (bytes !== null) headers["content-length"] = String(Buffer.byteLength(bytes));
    const transport = url.protocol === "https:" ? https : http;

    return new Promise<Response>((resolve, reject) => {
      const request = transport.request(url, { method: init.method ?? "GET", headers, agent: agents[url.protocol as "http:" | "https:"] });
      let answered = false;
      const onAbort = () => {
        request.destroy(abortError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const settle = () => signal?.removeEventListener("abort", onAbort);
      request.on("error", (error) => {
        if (answered) return;
        settle();
        reject(signal?.aborted ? abortError() : Object.assign(new TypeError("fetch failed"), { cause: error }));
      });
      request.once("response", (response) => {
        answered = true;
        resolve(toResponse(response, signal, settle));
      });
      request.end(bytes ?? undefined);
    });
  }) as typeof fetch;
}

/** Statuses whose Response may not carry a body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function toResponse(response: http.IncomingMessage, signal: AbortSignal | undefined, settle: () => void): Response {
  const status = response.statusCode ?? 502;
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  if (NULL_BODY.has(status)) {
    response.resume();
    settle();
    return new Response(null, { status, statusText: response.statusMessage, headers });
  }
  // fetch decodes what it asked for; this asks for nothing, so only a server ignoring that needs it.
  const encoding = (response.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip" ? zlib.createGunzip() : encoding === "deflate" ? zlib.createInflate() : encoding === "br" ? zlib.createBrotliDecompress() : null;
  if (decoder) {
    response.pipe(decoder);
    response.once("error", (error) => decoder.destroy(error));
  }
  const source = decoder ?? response;
  // Set once the stream is closed, errored or cancelled: what still arrives is dropped.
  let over = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      source.on("data", (chunk: Buffer) => {
        if (over) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) source.pause();
      });
      source.once("end", () => {
        settle();
        if (over) return;
        over = true;
        try {
          controller.close();
        } catch {
          // Cancelled by the reader.
        }
      });
      const broken = (error?: Error) => {
        settle();
        if (over) return;
        over = true;
        try {
          controller.error(signal?.aborted ? abortError() : Object.assign(new TypeError("terminated"), { cause: error }));
        } catch {
          // Cancelled by the reader.
        }
      };
      source.once("error", broken);
      response.once("close", () => {
        if (!response.complete) broken();
      });
    },
    pull() {
      source.resume();
    },
    cancel() {
      settle();
      over = true;
      // After the last event the rest is usually only the end of the body: read it, so the keep-alive
      // connection is reused; an answer still going after a second is cut.
      if (response.complete) return;
      source.resume();
      const timer = setTimeout(() => response.destroy(), 1000);
      timer.unref();
      response.once("end", () => clearTimeout(timer));
    },
  }, { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength });
  return new Response(stream, { status, statusText: response.statusMessage, headers });
}

function abortError(): DOMException {
  return new DOMException("This operation was aborted", "AbortError");
}
