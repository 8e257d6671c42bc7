import "server-only";
import type { z } from "@/lib/shared/zod";
import type { ApiRoute, AuthMode, ResponseOf } from "@/lib/shared/api/contract";
import { assertSameOrigin, getRequestUser, requireUser } from "@/lib/server/auth/session";
import type { AuthUser } from "@/lib/server/auth/types";
import { clientKey } from "@/lib/server/client-address";
import { errorResponse, readJsonBody } from "@/lib/server/http";
import { webPushedResponse, type Producer } from "@/lib/server/api/pushed-body";
import { consume } from "@/lib/server/rate-limit";
import { beginWrite } from "@/lib/server/lifecycle";

/**
 * The one route wrapper: every route of app/api and server.mjs's hot path, the confidential relay
 * included, is `route(api.<name>, handler)` or `route(api.<name>, options, handler)`. What the route
 * admits is declared in its contract entry (lib/shared/api/contract.ts: auth, same-origin, rate limit,
 * body limit); the wrapper runs these steps in this fixed order, each refusing with an AppError
 * (lib/shared/errors.ts) answered as `{ "error": "..." }`:
 *   0. a request but GET/HEAD is a write: registered with lib/server/lifecycle.ts until its answer is
 *      made, so a shutdown lets it finish before the database closes; refused with 503 while draining;
 *   1. `before` (a check that must come first, e.g. payments configured, the instance not draining);
 *   2. same-origin (unless the entry says `sameOrigin: false`: state-changing requests by cookie from
 *      another site get 403);
 *   3. authentication (the entry's `auth`: "session" 401/403, "optional", or "none"/"in-statement",
 *      where the handler reads the session together with its data in one database round trip);
 *   4. rate limit (the entry's `rateLimit`: per user, else per client network; 429 with Retry-After);
 *   5. the body, when the entry has a JSON one: at most `maxBytes`, validated by its strict schema
 *      (415, 413, 400 naming an unknown field);
 * then the handler, whose answer is typed by the route's response schema (`reply`), or a Response of its
 * own (streams, JSON text made by the database). Anything thrown becomes errorResponse (lib/server/http.ts).
 *
 * The handler reaches the client only through its context (RouteContext): `signal`, `readBody`, `stream`
 * and `json` go through an Exchange, the Web one under Next, server.mjs's hot path's own there
 * (lib/server/hot-path.ts), so a handler never asks which server it runs under.
 */

/** The caller a handler gets for each auth mode. */
type UserOf<A extends AuthMode> = A extends "session" ? AuthUser : A extends "optional" ? AuthUser | null : null;

/** How a handler differs from the wrapper's defaults (what it admits is the contract entry's). */
export interface RouteOptions {
  /** A check made before anything else. */
  before?: (request: Request) => void;
  /** The body may be left out: it is read only when the request sends a Content-Type and a body. */
  bodyOptional?: boolean;
  /**
   * The handler reads the body itself, with its context's `readBody` (the chat calls: their schema follows the
   * configured limits, lib/server/chat/limits.ts chatRequestFor, and the signed-in one reads it between its
   * session and quota checks).
   */
  handlerReadsBody?: true;
}

/** A typed 2xx answer: `body` is checked against the route's response type at compile time. */
export interface Reply<T> {
  readonly body: T;
  readonly status?: number;
  readonly headers?: HeadersInit;
}

/** `body` as the route's answer (200 unless `init.status`). */
export function reply<R extends ApiRoute>(_route: R, body: ResponseOf<R>, init: { status?: number; headers?: HeadersInit } = {}): Reply<ResponseOf<R>> {
  return { body, ...init };
}

type BodyOut<R extends ApiRoute> = R extends { body: z.ZodType } ? z.output<R["body"]> : undefined;

/**
 * How one request reaches its client: the one thing that differs between Next (WebExchange, over the Web
 * Request and Response) and server.mjs's hot path (lib/server/hot-path.ts, over node:http's objects).
 */
export interface Exchange {
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** Whether a body was sent that is not read yet. */
  hasBody(): boolean;
  /**
   * The JSON body, at most `maxBytes` bytes, validated by `schema`; once.
   * @throws AppError 415 not JSON, 413 too large, 400 empty, malformed or failing `schema`.
   */
  readBody<S extends z.ZodType>(schema: S, maxBytes: number): Promise<z.output<S>>;
  /** The answer `produce` writes (a stream), with `init`'s status and headers. */
  stream(produce: Producer, init: ResponseInit): Response;
  /** The JSON answer `text`, with `init`'s status and headers and Content-Type application/json. */
  json(text: string, init?: ResponseInit): Response;
}

/** The Exchange of a Web Request (Next, tests): its own signal and body, answers with Web bodies. */
class WebExchange implements Exchange {
  constructor(private readonly request: Request) {}

  get signal(): AbortSignal {
    return this.request.signal;
  }

  hasBody(): boolean {
    return this.request.body !== null && !this.request.bodyUsed;
  }

  readBody<S extends z.ZodType>(schema: S, maxBytes: number): Promise<z.output<S>> {
    return readJsonBody(this.request, schema, maxBytes);
  }

  stream(produce: Producer, init: ResponseInit): Response {
    return webPushedResponse(produce, init);
  }

  json(text: string, init: ResponseInit = {}): Response {
    return new Response(text, { ...init, headers: jsonHeaders(init.headers) });
  }
}

/** `headers` with Content-Type application/json unless they name one. */
export function jsonHeaders(headers: HeadersInit | undefined): Headers {
  const out = new Headers(headers);
  if (!out.has("content-type")) out.set("content-type", "application/json");
  return out;
}

/**
 * The request and its client's signal, body reader and answer writer (its Exchange): what the chat turns
 * and the relay take from their route's context. Methods sit on the prototype (no closure a request);
 * their `this` type makes a detached call (`const { stream } = ctx`) a compile error.
 */
export class ClientExchange {
  constructor(
    readonly request: Request,
    private readonly exchange: Exchange,
    private readonly maxBytes: number,
  ) {}

  /** Aborted when the client goes away, on either server (the hot path's Request has no signal of its own). */
  get signal(): AbortSignal {
    return this.exchange.signal;
  }

  /**
   * The body, for a handler that reads its own (`handlerReadsBody`): JSON of at most `maxBytes` (default the
   * entry's), validated by `schema`; once. @throws AppError 415, 413, 400.
   */
  readBody<S extends z.ZodType>(this: ClientExchange, schema: S, maxBytes = this.maxBytes): Promise<z.output<S>> {
    return this.exchange.readBody(schema, maxBytes);
  }

  /** The answer `produce` writes: into the socket on the hot path, into a Web stream under Next. */
  stream(this: ClientExchange, produce: Producer, init: ResponseInit): Response {
    return this.exchange.stream(produce, init);
  }

  /** The JSON text `text` as the answer (e.g. made by the database), Content-Type application/json. */
  json(this: ClientExchange, text: string, init?: ResponseInit): Response {
    return this.exchange.json(text, init);
  }
}

/** What a handler gets: the request's ClientExchange, the caller, the wrapper's body and the path's params. One object a request. */
export class RouteContext<R extends ApiRoute, P> extends ClientExchange {
  constructor(
    request: Request,
    readonly user: UserOf<R["auth"]>,
    /** The validated body (undefined when the route has none, it was optional and left out, or the handler reads it). */
    readonly body: BodyOut<R>,
    readonly params: P,
    exchange: Exchange,
    maxBytes: number,
  ) {
    super(request, exchange, maxBytes);
  }
}

/**
 * A route handler as Next.js calls it (`context` with the path's params), and as the hot path does,
 * which adds its own `exchange` (without, the request's own Web one is used).
 */
export type WebHandler<P = Record<string, never>> = (request: Request, context?: { params: Promise<P>; exchange?: Exchange }) => Promise<Response>;

type Handler<R extends ApiRoute, P> = (ctx: RouteContext<R, P>) => Promise<Reply<ResponseOf<R>> | Response>;

/** Cache-Control for answers about the caller: never stored by a shared cache. */
export const PRIVATE_NO_STORE = { "Cache-Control": "private, no-store" } as const;

/**
 * Wrap a handler: see the module comment for the order of the steps.
 * @returns a Next.js route handler `(request, { params }) => Promise<Response>`.
 */
export function route<R extends ApiRoute, P = Record<string, never>>(contractRoute: R, handler: Handler<R, P>): WebHandler<P>;
export function route<R extends ApiRoute, P = Record<string, never>>(contractRoute: R, options: RouteOptions, handler: Handler<R, P>): WebHandler<P>;
export function route<R extends ApiRoute, P = Record<string, never>>(
  contractRoute: R,
  optionsOrHandler: RouteOptions | Handler<R, P>,
  maybeHandler?: Handler<R, P>,
): WebHandler<P> {
  const options: RouteOptions = typeof optionsOrHandler === "function" ? {} : optionsOrHandler;
  const handler = typeof optionsOrHandler === "function" ? optionsOrHandler : maybeHandler!;
  const { auth, rateLimit, name } = contractRoute;
  const readsBody = contractRoute.body && !contractRoute.form && !contractRoute.rawBody && !options.handlerReadsBody;
  const maxBytes = contractRoute.maxBytes ?? 1024;
  return async (request, context) => {
    const exchange = context?.exchange ?? new WebExchange(request);
    let write: { end(): void } | null = null;
    try {
      if (request.method !== "GET" && request.method !== "HEAD") write = beginWrite();
      options.before?.(request);
      if (contractRoute.sameOrigin !== false) assertSameOrigin(request);
      const user =
        auth === "session"
          ? await requireUser(request, { allowDeleted: contractRoute.allowDeleted })
          : auth === "optional"
            ? await getRequestUser(request)
            : null;
      if (rateLimit) {
        // Signed out: per client address, never a header the client chose.
        await consume(rateLimit, user ? `u:${user.id}` : `a:${clientKey(request) ?? "unknown"}`);
      }
      let body: unknown;
      if (readsBody && (!options.bodyOptional || hasBody(request, exchange))) {
        body = await exchange.readBody(contractRoute.body!, maxBytes);
      }
      const params = (context ? await context.params : {}) as P;
      const answer = await handler(new RouteContext(request, user as UserOf<R["auth"]>, body as BodyOut<R>, params, exchange, maxBytes));
      if (answer instanceof Response) return answer;
      return exchange.json(JSON.stringify(answer.body), { status: answer.status, headers: answer.headers });
    } catch (error) {
      return errorResponse(error, name);
    } finally {
      write?.end();
    }
  };
}

/** Whether an optional body was sent: a Content-Type, and not an empty one. */
function hasBody(request: Request, exchange: Exchange): boolean {
  return Boolean(request.headers.get("content-type")) && request.headers.get("content-length") !== "0" && exchange.hasBody();
}
