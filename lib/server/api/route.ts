import "server-only";
import type { z } from "@/lib/shared/zod";
import type { ApiRoute, ResponseOf } from "@/lib/shared/api/contract";
import { assertSameOrigin, getRequestUser, requireUser } from "@/lib/server/auth/session";
import type { AuthUser } from "@/lib/server/auth/types";
import { clientKey } from "@/lib/server/client-address";
import { errorResponse, hasNodeBody, readJsonBody } from "@/lib/server/http";
import { jsonResponse } from "@/lib/server/api/pushed-body";
import { consume } from "@/lib/server/rate-limit";

/**
 * The one route wrapper of app/api (docs/issues.md #19). Every handler is `route(contractRoute, options, handler)`;
 * the wrapper runs these steps in this fixed order, each refusing with an AppError (lib/shared/errors.ts)
 * answered as `{ "error": "..." }`:
 *   1. `before` (a check that must come first, e.g. payments configured, the instance not draining);
 *   2. same-origin (`sameOrigin`, default true: state-changing requests by cookie from another site: 403);
 *   3. authentication (`auth`: "user" 401/403, "optional", or "none" when the handler reads the session
 *      together with its data in one database round trip);
 *   4. rate limit (`rateLimit`: per user, else per client address; 429 with Retry-After);
 *   5. the body, when the contract route has one: JSON of at most `maxBytes`, validated by its schema
 *      (415, 413, 400; every body schema is strict, so an unknown field is a 400 naming it, docs/issues.md #22);
 * then the handler, whose answer is typed by the route's response schema (`reply`), or a Response of its
 * own (streams, JSON text made by the database). Anything thrown becomes errorResponse (lib/server/http.ts).
 */

type Auth = "user" | "optional" | "none";

export interface RouteOptions<A extends Auth> {
  /** Name in logs and security events. */
  name: string;
  auth: A;
  /** With auth "user": a deleted account passes (check_account_status, create_account, delete_user). */
  allowDeleted?: boolean;
  /** Refuse cross-site state-changing requests by cookie (default true). */
  sameOrigin?: boolean;
  /** A check made before anything else. */
  before?: (request: Request) => void;
  /** A limit per signed-in user, else per client address (lib/server/client-address.ts). */
  rateLimit?: { name: string; points: number; durationSeconds: number };
  /** The body may be left out: it is read only when the request sends a Content-Type and a body. */
  bodyOptional?: boolean;
  /**
   * The handler reads the body itself (the chat calls: their schema follows the configured limits,
   * lib/server/chat/limits.ts chatRequestFor, and the signed-in one reads it between its session and quota checks).
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

type UserOf<A extends Auth> = A extends "user" ? AuthUser : A extends "optional" ? AuthUser | null : null;
type BodyOut<R extends ApiRoute> = R extends { body: z.ZodType } ? z.output<R["body"]> : undefined;

export interface RouteContext<R extends ApiRoute, A extends Auth, P> {
  request: Request;
  user: UserOf<A>;
  /** The validated body (undefined when the route has none, or it was optional and left out). */
  body: BodyOut<R>;
  params: P;
}

/** Cache-Control for answers about the caller: never stored by a shared cache. */
export const PRIVATE_NO_STORE = { "Cache-Control": "private, no-store" } as const;

/**
 * Wrap a handler: see the module comment for the order of the steps.
 * @returns a Next.js route handler `(request, { params }) => Promise<Response>`.
 */
export function route<R extends ApiRoute, A extends Auth, P = Record<string, never>>(
  contractRoute: R,
  options: RouteOptions<A>,
  handler: (ctx: RouteContext<R, A, P>) => Promise<Reply<ResponseOf<R>> | Response>,
): (request: Request, context?: { params: Promise<P> }) => Promise<Response> {
  return async (request, context) => {
    try {
      options.before?.(request);
      if (options.sameOrigin !== false) assertSameOrigin(request);
      const user =
        options.auth === "user"
          ? await requireUser(request, { allowDeleted: options.allowDeleted })
          : options.auth === "optional"
            ? await getRequestUser(request)
            : null;
      if (options.rateLimit) {
        // Signed out: per client address, never a header the client chose.
        await consume(options.rateLimit, user ? `u:${user.id}` : `a:${clientKey(request) ?? "unknown"}`);
      }
      let body: unknown;
      if (contractRoute.body && !contractRoute.form && !options.handlerReadsBody && (!options.bodyOptional || hasBody(request))) {
        body = await readJsonBody(request, contractRoute.body, contractRoute.maxBytes ?? 1024);
      }
      const params = (context ? await context.params : {}) as P;
      const answer = await handler({ request, user: user as UserOf<A>, body: body as BodyOut<R>, params });
      if (answer instanceof Response) return answer;
      return jsonResponse(request, JSON.stringify(answer.body), { status: answer.status, headers: answer.headers });
    } catch (error) {
      return errorResponse(error, options.name);
    }
  };
}

/** Whether an optional body was sent: a Content-Type, and not an empty one. */
function hasBody(request: Request): boolean {
  return Boolean(request.headers.get("content-type")) && request.headers.get("content-length") !== "0" && (request.body !== null || hasNodeBody(request));
}
