import type { z } from "@/lib/shared/zod";
import type { Api, RouteName } from "@/lib/shared/api/contract";
import { AppError } from "@/lib/shared/errors";

/**
 * The browser's one typed API client over lib/shared/api/contract.ts. A refused call throws AppError from its status
 * and `{ error }` body; a network failure AppError "offline:api" (status 0). The contract, and zod with it, loads at
 * the first call, not with the page.
 */

let contract: Promise<Api> | undefined;
function routes(): Promise<Api> {
  contract ??= import("@/lib/shared/api/contract").then((m) => m.api);
  return contract;
}

export function preloadContract(): void {
  routes().catch(() => {
    contract = undefined;
  });
}

export interface CallInput<N extends RouteName> {
  params?: Record<string, string>;
  query?: Record<string, string | number | null | undefined>;
  body?: Api[N] extends { body: z.ZodType } ? z.input<Api[N]["body"]> : never;
  raw?: Api[N] extends { rawBody: true } ? Blob : never;
  signal?: AbortSignal;
  keepalive?: boolean;
  headers?: Record<string, string>;
}

const UNEXPLAINED = "unexplained";

export function serverMessage(error: unknown): string | null {
  return error instanceof AppError && error.status > 0 && !error.code.endsWith(`:${UNEXPLAINED}`) && error.code !== "internal:response_shape"
    ? error.message
    : null;
}

export const NETWORK_ERROR_MESSAGE = "Network error. Please try again.";

function urlOf(api: Api, name: RouteName, input: CallInput<RouteName>): string {
  let path: string = api[name].path;
  for (const [key, value] of Object.entries(input.params ?? {})) path = path.replace(`{${key}}`, encodeURIComponent(value));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) if (value !== null && value !== undefined) query.set(key, String(value));
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

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
 * @throws AppError: a refusal, "offline:api" (status 0), "internal:response_shape"; AbortError on `input.signal`
 */
export async function apiFetch<N extends RouteName>(name: N, input: CallInput<N> = {}): Promise<z.output<Api[N]["response"]>> {
  const api = await routes();
  const response = await send(api, name, input);
  const data: unknown = await response.json().catch(() => undefined);
  const parsed = api[name].response.safeParse(data);
  if (!parsed.success) throw new AppError("internal:response_shape", "The server's answer was not understood.", { status: response.status });
  return parsed.data as z.output<Api[N]["response"]>;
}

/** Call a streaming route and return the answer's body. @throws AppError as apiFetch */
export async function apiStream<N extends RouteName>(name: N, input: CallInput<N> = {}): Promise<ReadableStream<Uint8Array<ArrayBuffer>>> {
  const response = await send(await routes(), name, input, "text/event-stream");
  if (!response.body) throw new AppError("upstream:api", "The answer ended before it was complete.", { status: 502 });
  return response.body;
}
