import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getConfig } from "@/lib/server/config";
import { chatHistoryBatchRoute, chatHistoryGetRoute, chatHistoryListRoute, chatSaveRoute, chatSignedInRoute, chatVisitorRoute } from "@/lib/server/chat/routes";
import { relayChat } from "@/lib/server/confidential/relay";
import { directRequest, drained, errorResponse } from "@/lib/server/http";
import { corkedWriter, pushTo, takeProducer, takeText } from "@/lib/server/api/pushed-body";
import { apiPolicyHeaders, COMMON_HEADERS } from "@/lib/server/security/headers";

/**
 * The hot path of server.mjs (docs/issues.md #24; docs/performance.md "Custom server"): the chat turns, the
 * saving of a sealed turn and the history reads (the list, one saved chat, a batch for search), answered
 * by the same handlers as their route files but straight from node:http, without Next's routing,
 * proxy.ts and route-handler machinery.
 *
 * What Next did around those handlers is done here: the security headers of proxy.ts (API CSP, HSTS)
 * and next.config.ts (COMMON_HEADERS); a request Next would refuse before routing never gets here,
 * since lib/server/request-guard.ts and the peer stamp (lib/server/peer-stamp.ts, the client address) wrap every
 * node:http server of the process. Only POST on the exact paths of HOT_ROUTES and GET of the list or of
 * one saved chat are taken: any other method goes to Next, whose proxy.ts answers 405.
 *
 * server.mjs imports nothing of lib: it finds `handle` on globalThis under HOT_PATH_KEY, put there by
 * instrumentation.ts (installHotPath) from the copy of lib Next loaded, so module state (database,
 * quota, rate limits, lifecycle) stays the one Next's routes see (they keep theirs on globalThis).
 */

/** A route handler as the route files export it: a Web Request in, a Response out. */
type WebHandler = (request: Request) => Promise<Response>;

/** The paths served here on POST, each by the handler its route file exports. */
const HOT_ROUTES = new Map<string, WebHandler>([
  ["/api/ns/chat", chatVisitorRoute],
  ["/api/ns/chat_user", chatSignedInRoute],
  // The browser's sealed save after each signed-in answer: half of a saved turn's requests.
  ["/api/ns/chat_save", chatSaveRoute],
  // Search and export read the whole history through it (docs/issues.md #9).
  ["/api/ns/chat_history/batch", chatHistoryBatchRoute],
  ["/api/confidential/chat", relayChat],
]);

/**
 * The handlers that stream the request body itself (the relay passes the sealed bytes on as they come),
 * and so get it as a Web stream; the others read JSON with readJsonBody, straight from the socket
 * (lib/server/http.ts directRequest).
 */
const STREAMS_BODY = new Set<WebHandler>([relayChat]);

/** GET of the list (app/api/ns/chat_history/route.ts) and of one saved chat ([chatId]/route.ts; "batch" is a POST route of its own). */
const HISTORY_LIST = "/api/ns/chat_history";
const HISTORY_PREFIX = "/api/ns/chat_history/";

/** The globalThis key under which installHotPath leaves `{ handle }` for server.mjs. */
export const HOT_PATH_KEY = Symbol.for("hush.hotPath");

/** What server.mjs calls for each request. */
export interface HotPath {
  /** True when the request is a hot route and is being answered here; false: hand it to Next. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

/** Offer the hot path to server.mjs (called once by instrumentation.ts; the last call wins). */
export function installHotPath(): void {
  (globalThis as Record<symbol, unknown>)[HOT_PATH_KEY] = { handle: handleHotRequest } satisfies HotPath;
}

/**
 * Answer `req` here when it is POST on a hot route (true), else leave it untouched (false). The answer's
 * body is written with back-pressure (the next chunk is read once the socket has drained), and a client
 * that goes away aborts the request's signal at once, which stops the model call or the enclave request.
 */
export function handleHotRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? "";
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  if (req.method === "GET") {
    if (path === HISTORY_LIST) {
      void serve(chatHistoryListRoute, req, res);
      return true;
    }
    if (!path.startsWith(HISTORY_PREFIX)) return false;
    const segment = path.slice(HISTORY_PREFIX.length);
    if (!segment || segment === "batch" || segment.includes("/")) return false;
    let chatId: string;
    try {
      chatId = decodeURIComponent(segment);
    } catch {
      return false;
    }
    void serve((request) => chatHistoryGetRoute(request, { params: Promise.resolve({ chatId }) }), req, res);
    return true;
  }
  if (req.method !== "POST") return false;
  const handler = HOT_ROUTES.get(path);
  if (!handler) return false;
  void serve(handler, req, res);
  return true;
}

async function serve(handler: WebHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const gone = new AbortController();
  // 'close' before the answer finished: the client disconnected (or the socket failed).
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  // A write to a socket already gone is noticed through 'close'; its error needs no listener of its own.
  res.on("error", () => undefined);
  const streamed = req.method === "POST" && STREAMS_BODY.has(handler) ? new RequestBody(req) : null;
  let response: Response;
  try {
    const request = directRequest(toRequest(req, streamed?.stream ?? null), gone.signal, streamed || req.method !== "POST" ? null : req);
    response = await handler(request);
  } catch (error) {
    // The handlers answer their own errors; this is a failure of the adaptation itself.
    response = errorResponse(error, "hot_path");
  }
  await send(response, res, gone.signal);
  // A body the handler did not read (refused before reading it): discard the rest as it arrives, so the
  // keep-alive connection's next request is read (bounded by deploy/http-timeouts.cjs requestTimeout).
  // Only now: the relay may still be streaming the body upstream while the answer comes back.
  if (streamed) streamed.discardRest();
  else if (!req.complete) req.resume();
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
 * body, or none (a GET, or a body left on the socket for readJsonBody). No signal: the handlers take the
 * client's from lib/server/http.ts clientSignal (a Request following a signal costs more than the rest of it).
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

/** Write `response` to `res`: status, headers plus the security headers, then its body with back-pressure. */
async function send(response: Response, res: ServerResponse, gone: AbortSignal): Promise<void> {
  const config = getConfig();
  const headers: Record<string, string | string[]> = {};
  for (const { key, value } of COMMON_HEADERS) headers[key] = value;
  Object.assign(headers, apiPolicyHeaders({ production: config.isProduction, appUrl: config.APP_URL }));
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  // A JSON answer made as text (lib/server/api/pushed-body.ts jsonResponse): written with the headers at once.
  const text = takeText(response);
  if (text !== undefined) {
    if (res.destroyed) return;
    headers["content-length"] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
  if (res.destroyed) {
    // Gone before the answer started: a producer still runs, to its end at once, letting go of what it holds.
    const produce = takeProducer(response);
    if (produce) await pushTo(produce, res, AbortSignal.abort());
    else await response.body?.cancel().catch(() => undefined);
    return;
  }
  res.writeHead(response.status, headers);
  const produce = takeProducer(response);
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
