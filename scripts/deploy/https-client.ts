/**
 * A small HTTPS client for the multi-instance test and the load bench: a cookie jar, a chosen 127.0.0.x source
 * address per simulated client, the upstream nginx names, and SSE timing.
 */
import http from "node:http";
import https from "node:https";

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The test-only `X-Hush-Upstream` header, e.g. "127.0.0.1:5554". */
  upstream: string;
}

export interface SseResult extends HttpResult {
  events: { event: string; data: unknown }[];
  /** Null when no delta came. */
  ttftMs: number | null;
}

export class HttpsClient {
  readonly jar = new Map<string, string>();
  readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;

  constructor(
    readonly origin: string,
    options: { ca?: Buffer; localAddress?: string; maxSockets?: number } = {},
  ) {
    this.transport = origin.startsWith("http:") ? http : https;
    this.agent = new this.transport.Agent({
      keepAlive: true,
      ca: options.ca,
      localAddress: options.localAddress,
      maxSockets: options.maxSockets ?? 4,
      // The test certificate names 127.0.0.1, so verification stays on.
    });
  }

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private absorb(setCookie: string[] | undefined): void {
    for (const line of setCookie ?? []) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  /** `form` is sent urlencoded, `json` as JSON; writes carry a same-origin Origin. */
  request(
    method: string,
    path: string,
    init: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string>; onData?: (chunk: string) => void; onHeaders?: (upstream: string) => void; signal?: AbortSignal } = {},
  ): Promise<HttpResult> {
    const url = new URL(path, this.origin);
    const headers: Record<string, string> = { ...init.headers };
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers["content-type"] = "application/json";
    } else if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    if (method !== "GET" && method !== "HEAD") headers.origin ??= this.origin;
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    return new Promise((resolve, reject) => {
      const req = this.transport.request(url, { method, headers, agent: this.agent, signal: init.signal }, (res) => {
        this.absorb(res.headers["set-cookie"]);
        init.onHeaders?.(String(res.headers["x-hush-upstream"] ?? ""));
        res.setEncoding("utf8");
        let text = "";
        res.on("data", (chunk: string) => {
          text += chunk;
          init.onData?.(chunk);
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            upstream: String(res.headers["x-hush-upstream"] ?? ""),
          }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  async json<T = Record<string, unknown>>(method: string, path: string, init: Parameters<HttpsClient["request"]>[2] = {}) {
    const res = await this.request(method, path, init);
    let data: T | null = null;
    try {
      data = JSON.parse(res.body) as T;
    } catch {
      data = null;
    }
    return { ...res, data };
  }

  async chat(
    path: "/api/ns/chat" | "/api/ns/chat_user",
    payload: unknown,
    options: { signal?: AbortSignal; onHeaders?: (upstream: string) => void } = {},
  ): Promise<SseResult> {
    const started = performance.now();
    let ttftMs: number | null = null;
    const res = await this.request("POST", path, {
      json: payload,
      headers: { accept: "text/event-stream" },
      signal: options.signal,
      onHeaders: options.onHeaders,
      onData: (chunk) => {
        if (ttftMs === null && chunk.includes("event: delta")) ttftMs = performance.now() - started;
      },
    });
    const events = String(res.headers["content-type"] ?? "").startsWith("text/event-stream")
      ? res.body
          .trim()
          .split("\n\n")
          .filter(Boolean)
          .map((block) => ({
            event: /^event: (.*)$/m.exec(block)?.[1] ?? "",
            data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null") as unknown,
          }))
      : [];
    return { ...res, events, ttftMs };
  }

  close(): void {
    this.agent.destroy();
  }
}
