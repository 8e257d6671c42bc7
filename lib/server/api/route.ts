import "server-only";
import type { z } from "@/lib/shared/zod";
import type { ApiRoute, AuthMode, ResponseOf } from "@/lib/shared/api/contract";
import { assertSameOrigin, getRequestUser, requireUser } from "@/lib/server/auth/session";
import type { AuthUser } from "@/lib/server/auth/types";
import { clientKey } from "@/lib/server/client-address";
import { errorResponse, readJsonBody } from "@/lib/server/http";
import { webPushedResponse, type Producer } from "@/lib/server/api/response-sink";
import { consume } from "@/lib/server/rate-limit";
import { beginWrite } from "@/lib/server/lifecycle";

type UserOf<A extends AuthMode> = A extends "session" ? AuthUser : A extends "optional" ? AuthUser | null : null;

export interface RouteOptions {
  before?: (request: Request) => void;
  bodyOptional?: boolean;
  /** The handler reads the body itself with `readBody`. */
  handlerReadsBody?: true;
}

export interface Reply<T> {
  readonly body: T;
  readonly status?: number;
  readonly headers?: HeadersInit;
}

export function reply<R extends ApiRoute>(_route: R, body: ResponseOf<R>, init: { status?: number; headers?: HeadersInit } = {}): Reply<ResponseOf<R>> {
  return { body, ...init };
}

type BodyOut<R extends ApiRoute> = R extends { body: z.ZodType } ? z.output<R["body"]> : undefined;

/** How one request reaches its client: Web objects under Next, node:http's on the hot path. */
export interface Exchange {
  readonly signal: AbortSignal;
  hasBody(): boolean;
  /** @throws AppError 415, 413, 400 */
  readBody<S extends z.ZodType>(schema: S, maxBytes: number): Promise<z.output<S>>;
  stream(produce: Producer, init: ResponseInit): Response;
  json(text: string, init?: ResponseInit): Response;
}

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

export function jsonHeaders(headers: HeadersInit | undefined): Headers {
  const out = new Headers(headers);
  if (!out.has("content-type")) out.set("content-type", "application/json");
  return out;
}

export class ClientExchange {
  constructor(
    readonly request: Request,
    private readonly exchange: Exchange,
    private readonly maxBytes: number,
  ) {}

  get signal(): AbortSignal {
    return this.exchange.signal;
  }

  readBody<S extends z.ZodType>(this: ClientExchange, schema: S, maxBytes = this.maxBytes): Promise<z.output<S>> {
    return this.exchange.readBody(schema, maxBytes);
  }

  stream(this: ClientExchange, produce: Producer, init: ResponseInit): Response {
    return this.exchange.stream(produce, init);
  }

  json(this: ClientExchange, text: string, init?: ResponseInit): Response {
    return this.exchange.json(text, init);
  }
}

/** What a handler gets. */
export class RouteContext<R extends ApiRoute, P> extends ClientExchange {
  constructor(
    request: Request,
    readonly user: UserOf<R["auth"]>,
    readonly body: BodyOut<R>,
    readonly params: P,
    exchange: Exchange,
    maxBytes: number,
  ) {
    super(request, exchange, maxBytes);
  }
}

export type WebHandler<P = Record<string, never>> = (request: Request, context?: { params: Promise<P>; exchange?: Exchange }) => Promise<Response>;

type Handler<R extends ApiRoute, P> = (ctx: RouteContext<R, P>) => Promise<Reply<ResponseOf<R>> | Response>;

export const PRIVATE_NO_STORE = { "Cache-Control": "private, no-store" } as const;

/**
 * Wrap a handler in its contract entry's steps, in order: write registration (503 draining), `before`, same-origin
 * (403), auth (401/403), rate limit (429), body (415/413/400); anything thrown becomes errorResponse.
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

function hasBody(request: Request, exchange: Exchange): boolean {
  return Boolean(request.headers.get("content-type")) && request.headers.get("content-length") !== "0" && exchange.hasBody();
}
