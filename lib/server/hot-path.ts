import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getConfig } from "@/lib/server/config";
import { api, type ApiRoute, type FastRouteName } from "@/lib/shared/api/contract";
import { matchRoute } from "@/lib/server/api/methods";
import { jsonHeaders, type Exchange, type WebHandler } from "@/lib/server/api/route";
import { chatHistoryBatchRoute, chatHistoryGetRoute, chatHistoryListRoute, chatSaveRoute, chatSignedInRoute, chatVisitorRoute } from "@/lib/server/chat/routes";
import { processSlot } from "@/lib/server/process-state";
import { relayChat } from "@/lib/server/confidential/relay";
import type { z } from "@/lib/shared/zod";
import { checkJsonHeaders, drained, emptyBody, errorResponse, parseJsonBody, readNodeBody } from "@/lib/server/http";
import { corkedWriter, pushTo, type Producer } from "@/lib/server/api/pushed-body";
import { apiPolicyHeaders, COMMON_HEADERS } from "@/lib/server/security/headers";
import { handleLanding } from "@/lib/server/static-landing";

/**
 * The hot path of server.mjs (docs/performance.md "Custom server"): the routes whose contract entry says
 * `fastPath: true` (the chat turns, the relay, the sealed save and the history reads), answered by the
 * same handlers as their route files, through the same wrapper (lib/server/api/route.ts), but straight
 * from node:http without Next's routing, proxy.ts and route-handler machinery. Which route a request is
 * for is decided by the contract's own table (lib/server/api/methods.ts matchRoute), as Next would;
 * anything else, another method included, goes to Next, whose proxy.ts answers 405.
 *
 * What Next did around those handlers is done here: the security headers of proxy.ts (API CSP, HSTS)
 * and next.config.ts (COMMON_HEADERS); a request Next would refuse before routing never gets here,
 * since lib/server/request-guard.ts and the peer stamp (lib/server/peer-stamp.ts, the client address)
 * wrap every node:http server of the process.
 *
 * How a request here differs from one under Next is this module's HotExchange alone: the handler's
 * context (lib/server/api/route.ts) takes the client's signal, the JSON body and the answer from it.
 *
 * server.mjs imports nothing of lib (it would load another copy of every module's state): it reads the
 * `hotPath` slot of lib/server/process-state.ts that installHotPath fills from the copy of lib Next loaded.
 */

/**
 * The handler of each route whose contract entry says `fastPath: true` (lib/shared/api/contract.ts): the
 * same functions their route files export to Next. The type makes a fast route without a handler, or a
 * handler for a route that is not fast, a compile error.
 */
const FAST_ROUTES = {
  chatVisitor: chatVisitorRoute,
  chatSignedIn: chatSignedInRoute,
  chatSave: chatSaveRoute,
  chatHistoryList: chatHistoryListRoute,
  chatHistoryGet: chatHistoryGetRoute,
  chatHistoryBatch: chatHistoryBatchRoute,
  confidentialChat: relayChat,
} satisfies Record<FastRouteName, WebHandler<never>>;

/** What server.mjs calls for each request (it reads it from the process state's `hotPath` slot). */
export interface HotPath {
  /** True when the request is a hot route and is being answered here; false: hand it to Next. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * Offer the hot path to server.mjs, the one hand-over between the two (called once by
 * instrumentation.ts; the last call wins): the `hotPath` slot of lib/server/process-state.ts, which
 * server.mjs reads per request under the same key, since it imports nothing of lib.
 */
export function installHotPath(): void {
  processSlot<HotPath>("hotPath").value = { handle: handleHotRequest };
}

/**
 * Answer `req` here when it is a hot route, or the plain GET of the prerendered landing page
 * (lib/server/static-landing.ts) (true), else leave it untouched (false). The answer's
 * body is written with back-pressure (the next chunk is read once the socket has drained), and a client
 * that goes away aborts the request's signal at once, which stops the model call or the enclave request.
 */
export function handleHotRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const method = req.method ?? "";
  if (req.url === "/") return handleLanding(req, res);
  if (method !== "POST" && method !== "GET") return false;
  const url = req.url ?? "";
  const query = url.indexOf("?");
  const match = matchRoute(method, query < 0 ? url : url.slice(0, query));
  if (!match || !(match.name in FAST_ROUTES)) return false;
  const name = match.name as FastRouteName;
  void serve(FAST_ROUTES[name] as WebHandler<Record<string, string>>, match.params, req, res, api[name]);
  return true;
}

async function serve(handler: WebHandler<Record<string, string>>, params: Record<string, string>, req: IncomingMessage, res: ServerResponse, route: ApiRoute): Promise<void> {
  const gone = new AbortController();
  // 'close' before the answer finished: the client disconnected (or the socket failed).
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  // A write to a socket already gone is noticed through 'close'; its error needs no listener of its own.
  res.on("error", () => undefined);
  // The relay passes the sealed bytes on as they come, so it gets the body as a Web stream; the others
  // read JSON straight from the socket (HotExchange.readBody).
  const streamed = req.method === "POST" && "rawBody" in route ? new RequestBody(req) : null;
  const exchange = new HotExchange(req, gone.signal, streamed || req.method !== "POST" ? null : req);
  let response: Response;
  try {
    response = await handler(toRequest(req, streamed?.stream ?? null), { params: Promise.resolve(params), exchange });
  } catch (error) {
    // The handlers answer their own errors; this is a failure of the adaptation itself.
    response = errorResponse(error, "hot_path");
  }
  await send(response, res, gone.signal, exchange);
  // A body the handler did not read (refused before reading it): discard the rest as it arrives, so the
  // keep-alive connection's next request is read (bounded by deploy/http-timeouts.cjs requestTimeout).
  // Only now: the relay may still be streaming the body upstream while the answer comes back.
  if (streamed) streamed.discardRest();
  else if (!req.complete) req.resume();
}

/**
 * What a hot-path request's handler reaches its client through (lib/server/api/route.ts Exchange): the
 * `gone` signal of the connection, a JSON body read straight from the socket, and answers kept here for
 * `send` to write into the socket (a producer, or JSON text), without a Web body. A Request with a signal
 * of its own and a Web body stream cost about 30 µs a request in Node 20, before any work.
 */
class HotExchange implements Exchange {
  /** The Response `stream` or `json` made, and what `send` writes as its body. */
  answer: Response | null = null;
  produce: Producer | null = null;
  text: string | null = null;

  constructor(
    private readonly req: IncomingMessage,
    readonly signal: AbortSignal,
    /** The JSON body still on the socket (null: read, none, or the relay's streamed one). */
    private body: IncomingMessage | null,
  ) {}

  hasBody(): boolean {
    return this.body !== null;
  }

  async readBody<S extends z.ZodType>(schema: S, maxBytes: number): Promise<z.output<S>> {
    checkJsonHeaders(this.req.headers["content-type"], this.req.headers["content-length"], maxBytes);
    const body = this.body;
    this.body = null;
    if (!body) throw emptyBody();
    return parseJsonBody(await readNodeBody(body, maxBytes), schema);
  }

  stream(produce: Producer, init: ResponseInit): Response {
    this.produce = produce;
    return (this.answer = new Response(null, init));
  }

  json(text: string, init: ResponseInit = {}): Response {
    this.text = text;
    return (this.answer = new Response(null, { ...init, headers: jsonHeaders(init.headers) }));
  }
}

/**
 * The request body as a Web stream that reads the IncomingMessage only as fast as the handler reads
 * (the socket is paused past 64 KB queued), cheaper than Readable.toWeb, and that can drop the rest.
 */
class RequestBody {
  readonly stream: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private open = true;

  constructor(private readonly req: IncomingMessage) {
    const onData = (chunk: Buffer) => {
      if (!this.open) return;
      this.controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if ((this.controller.desiredSize ?? 0) <= 0) req.pause();
    };
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          req.on("data", onData);
          req.once("end", () => this.close(() => controller.close()));
          // Closed before the end: the client went away mid-body; a reader must not take it as whole.
          req.once("close", () => {
            if (!req.complete) this.close(() => controller.error(new Error("request body cut off")));
          });
        },
        pull: () => {
          req.resume();
        },
        cancel: () => this.discardRest(),
      },
      { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
    );
  }

  /** Stop passing data on; what is left of the body is read and dropped. */
  discardRest(): void {
    this.open = false;
    if (!this.req.complete) this.req.resume();
  }

  private close(action: () => void): void {
    if (!this.open) return;
    this.open = false;
    try {
      action();
    } catch {
      // Already closed or cancelled by the reader.
    }
  }
}

/**
 * The Web Request the handlers take: same method, URL, headers (with the peer stamp), and the streamed
 * body, or none (a GET, or a body left on the socket for HotExchange). No signal: the handlers take the
 * client's from their context (HotExchange's; a Request following a signal costs more than the rest of it).
 */
function toRequest(req: IncomingMessage, body: ReadableStream<Uint8Array> | null): Request {
  const headers = new Headers();
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  let url: URL;
  try {
    url = new URL(req.url!, `http://${req.headers.host ?? "localhost"}`);
  } catch {
    url = new URL(req.url!, "http://localhost");
  }
  return new Request(url, {
    method: req.method,
    headers,
    body,
    ...(body ? { duplex: "half" } : {}),
  } as RequestInit);
}

/**
 * Write `response` to `res`: status, headers plus the security headers, then its body with back-pressure:
 * the exchange's producer or JSON text when `response` is the one it made, else the Web body.
 */
async function send(response: Response, res: ServerResponse, gone: AbortSignal, exchange: HotExchange): Promise<void> {
  const config = getConfig();
  const headers: Record<string, string | string[]> = {};
  for (const { key, value } of COMMON_HEADERS) headers[key] = value;
  Object.assign(headers, apiPolicyHeaders({ production: config.isProduction, appUrl: config.APP_URL }));
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  const ours = response === exchange.answer;
  // A JSON answer made as text (the context's `json`): written with the headers at once.
  const text = ours ? exchange.text : null;
  if (text !== null) {
    if (res.destroyed) return;
    headers["content-length"] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
  if (res.destroyed) {
    // Gone before the answer started: a producer still runs, to its end at once, letting go of what it holds.
    const produce = ours ? exchange.produce : null;
    if (produce) await pushTo(produce, res, AbortSignal.abort());
    else await response.body?.cancel().catch(() => undefined);
    return;
  }
  res.writeHead(response.status, headers);
  const produce = ours ? exchange.produce : null;
  if (produce) {
    await pushTo(produce, res, gone);
    return;
  }
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  gone.addEventListener("abort", cancel, { once: true });
  // Chunks the stream already holds (the rest of an answer, the end) leave in one socket write.
  const write = corkedWriter(res);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (gone.aborted) return;
      if (!write(value)) await drained(res);
    }
    res.end();
  } catch {
    // The answer's stream failed mid-way: the status is sent, so cut the connection rather than end
    // a body that looks complete.
    res.destroy();
  } finally {
    gone.removeEventListener("abort", cancel);
  }
}
