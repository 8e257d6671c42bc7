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
import { corkedWriter, pushTo, type Producer } from "@/lib/server/api/response-sink";
import { apiPolicyHeaders, COMMON_HEADERS } from "@/lib/server/security/headers";
import { handleLanding } from "@/lib/server/static-landing";

// The contract's `fastPath` routes served straight from node:http; server.mjs reads them from the `hotPath` slot.

const FAST_ROUTES = {
  chatVisitor: chatVisitorRoute,
  chatSignedIn: chatSignedInRoute,
  chatSave: chatSaveRoute,
  chatHistoryList: chatHistoryListRoute,
  chatHistoryGet: chatHistoryGetRoute,
  chatHistoryBatch: chatHistoryBatchRoute,
  confidentialChat: relayChat,
} satisfies Record<FastRouteName, WebHandler<never>>;

export interface HotPath {
  /** False: hand it to Next. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

export function installHotPath(): void {
  processSlot<HotPath>("hotPath").value = { handle: handleHotRequest };
}

/** Answer `req` when it is a hot route or the landing page (true), else leave it to Next. */
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
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  res.on("error", () => undefined);
  const streamed = req.method === "POST" && "rawBody" in route ? new RequestBody(req) : null;
  const exchange = new HotExchange(req, gone.signal, streamed || req.method !== "POST" ? null : req);
  let response: Response;
  try {
    response = await handler(toRequest(req, streamed?.stream ?? null), { params: Promise.resolve(params), exchange });
  } catch (error) {
    response = errorResponse(error, "hot_path");
  }
  await send(response, res, gone.signal, exchange);
  // Drain an unread body so the keep-alive connection's next request is read.
  if (streamed) streamed.discardRest();
  else if (!req.complete) req.resume();
}

/** A hot request's Exchange (lib/server/api/route.ts). */
class HotExchange implements Exchange {
  answer: Response | null = null;
  produce: Producer | null = null;
  text: string | null = null;

  constructor(
    private readonly req: IncomingMessage,
    readonly signal: AbortSignal,
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
          // Closed before the end: the client went away mid-body.
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
  const text = ours ? exchange.text : null;
  if (text !== null) {
    if (res.destroyed) return;
    headers["content-length"] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
  if (res.destroyed) {
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
    // Failed after the status was sent: cut the connection rather than end a body that looks complete.
    res.destroy();
  } finally {
    gone.removeEventListener("abort", cancel);
  }
}
