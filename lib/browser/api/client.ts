import type { z } from "@/lib/shared/zod";
import type { Api, RouteName } from "@/lib/shared/api/contract";
import { AppError } from "@/lib/shared/errors";

/**
 * The browser's one typed API client: every call to our own server goes through `apiFetch`
 * (JSON answers, validated by the route's response schema in lib/shared/api/contract.ts) or `apiStream` (the
 * chat's Server-Sent Events: the Response body). A refused call throws AppError built from the answer's
 * status and `{ "error": "..." }` body (`AppError.fromStatus`); a network failure throws AppError
 * "offline:api" with status 0. Components, hooks and lib browser code never call `fetch` themselves.
 *
 * The contract (and zod with it, ~100 KB gzip) is loaded at the first call, not with the page: every page's
 * header asks `/api/me` after hydration, so importing it statically put zod in every page's first-load
 * JavaScript (docs/issues.md #12 budgets).
 */

let contract: Promise<Api> | undefined;
/** The contract's route table, imported once on first use. */
function routes(): Promise<Api> {
  contract ??= import("@/lib/shared/api/contract").then((m) => m.api);
  return contract;
}

/**
 * Start loading the contract now rather than at the first call: for code that will call soon and runs
 * where nothing else is waiting (the search worker as it starts). A failed load is retried
 * by that first call's own import.
 */
export function preloadContract(): void {
  routes().catch(() => {
    contract = undefined;
  });
}

export interface CallInput<N extends RouteName> {
  /** Values of the path's `{param}` segments (encoded here). */
  params?: Record<string, string>;
  /** Query string values. */
  query?: Record<string, string | number | null | undefined>;
  /** The body as the route's schema takes it (JSON, or form fields for next-auth). */
  body?: Api[N] extends { body: z.ZodType } ? z.input<Api[N]["body"]> : never;
  /** A raw body for a `rawBody` route (dictated audio), sent with its own type as Content-Type. */
  raw?: Api[N] extends { rawBody: true } ? Blob : never;
  signal?: AbortSignal;
  /** Send even while the page unloads (fetch keepalive). */
  keepalive?: boolean;
  headers?: Record<string, string>;
}

/** The code surface of a refusal that came without an `{ error }` body: "<type>:unexplained". */
const UNEXPLAINED = "unexplained";

/** The server's own sentence of a refused call, or null (network failure, or no `{ error }` body). */
export function serverMessage(error: unknown): string | null {
  return error instanceof AppError && error.status > 0 && !error.code.endsWith(`:${UNEXPLAINED}`) && error.code !== "internal:response_shape"
    ? error.message
    : null;
}

/** The message of a call that failed without reaching the server. */
export const NETWORK_ERROR_MESSAGE = "Network error. Please try again.";

function urlOf(api: Api, name: RouteName, input: CallInput<RouteName>): string {
  let path: string = api[name].path;
  for (const [key, value] of Object.entries(input.params ?? {})) path = path.replace(`{${key}}`, encodeURIComponent(value));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) if (value !== null && value !== undefined) query.set(key, String(value));
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Send the request; refusals (non-2xx) become AppError from their `{ error }` body. */
async function send<N extends RouteName>(api: Api, name: N, input: CallInput<N>, accept?: string): Promise<Response> {
  const route = api[name];
  const headers: Record<string, string> = { ...input.headers };
  let body: BodyInit | undefined;
  if (input.body !== undefined) {
    if ("form" in route && route.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(input.body as Record<string, string>);
    } else {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(input.body);
    }
  }
  if (input.raw !== undefined) {
    headers["Content-Type"] = input.raw.type || "application/octet-stream";
    body = input.raw;
  }
  if (accept) headers.Accept = accept;
  let response: Response;
  try {
    response = await fetch(urlOf(api, name, input as CallInput<RouteName>), {
      method: route.method,
      headers,
      body,
      credentials: "same-origin",
      cache: "no-store",
      signal: input.signal,
      keepalive: input.keepalive,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new AppError("offline:api", NETWORK_ERROR_MESSAGE);
  }
  if (!response.ok) {
    const data = (await response.json().catch(() => null)) as { error?: unknown } | null;
    if (typeof data?.error === "string" && data.error.trim()) throw AppError.fromStatus(response.status, data.error);
    // No `{ error }` body (a proxy's page, an empty answer): callers may show their own text instead.
    throw AppError.fromStatus(response.status, `Request failed (${response.status}).`, UNEXPLAINED);
  }
  return response;
}

/**
 * Call route `name` and return its answer, validated by the route's response schema.
 * @throws AppError: the server's refusal (status, its message), "offline:api" (status 0) when the server
 *   could not be reached, "internal:response_shape" when the answer is not what the contract says;
 *   DOMException "AbortError" when `input.signal` aborts.
 */
export async function apiFetch<N extends RouteName>(name: N, input: CallInput<N> = {}): Promise<z.output<Api[N]["response"]>> {
  const api = await routes();
  const response = await send(api, name, input);
  const data: unknown = await response.json().catch(() => undefined);
  const parsed = api[name].response.safeParse(data);
  if (!parsed.success) throw new AppError("internal:response_shape", "The server's answer was not understood.", { status: response.status });
  return parsed.data as z.output<Api[N]["response"]>;
}

/**
 * Call a streaming route (`Accept: text/event-stream`) and return the answer's body to read.
 * @throws AppError as apiFetch (refusals are JSON `{ error }` before any event).
 */
export async function apiStream<N extends RouteName>(name: N, input: CallInput<N> = {}): Promise<ReadableStream<Uint8Array<ArrayBuffer>>> {
  const response = await send(await routes(), name, input, "text/event-stream");
  if (!response.body) throw new AppError("upstream:api", "The answer ended before it was complete.", { status: 502 });
  return response.body;
}
