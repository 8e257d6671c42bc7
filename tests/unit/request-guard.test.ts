import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../helpers/process-state";
import { installRequestGuard, refusalFor } from "@/lib/server/request-guard";
import { API_POLICY } from "@/lib/server/security/csp";
import { COMMON_HEADERS } from "@/lib/server/security/headers";

/**
 * docs/issues.md #10, robustness: requests Next.js answers with a 500 before any route code runs (TRACE into a
 * route handler, OPTIONS *, malformed percent-encoding in a dynamic segment) get a 4xx from the guard
 * instrumentation.ts installs. The end-to-end check against the production build is e2e/robustness.spec.ts.
 */
describe("refusalFor", () => {
  it("refuses methods Next does not support and lets the app's methods through", () => {
    for (const m of ["TRACE", "TRACK", "CONNECT", "PROPFIND", "FOO"]) expect(refusalFor(m, "/api/me")?.status).toBe(405);
    for (const m of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) expect(refusalFor(m, "/api/me")).toBeNull();
  });

  it("refuses a request-target that is not a path, and malformed percent-encoding", () => {
    expect(refusalFor("OPTIONS", "*")?.status).toBe(400);
    expect(refusalFor("GET", "http://elsewhere.example/api/me")?.status).toBe(400);
    expect(refusalFor("GET", "//elsewhere.example/")?.status).toBe(400);
    expect(refusalFor("GET", "/api/ns/chat_history/%FF")?.status).toBe(400);
    expect(refusalFor("GET", "/api/ns/chat_history/%E0%A4%A")?.status).toBe(400);
    expect(refusalFor("GET", "/api/ns/chat_history/%C3%A9")).toBeNull();
    // The query is the route's business (URLSearchParams tolerates bad escapes).
    expect(refusalFor("GET", "/api/me?x=%FF")).toBeNull();
  });
});

describe("installRequestGuard on a real node:http server", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    installRequestGuard();
    server = http.createServer((_req, res) => {
      res.end("app");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** Send raw request text, as a fuzzer would, and return the status line's code and the body. */
  function raw(requestLine: string): Promise<{ status: number; body: string }> {
    return rawWithHeaders(requestLine).then(({ status, body }) => ({ status, body }));
  }

  /** As `raw`, with the answer's headers (names lower-cased). */
  function rawWithHeaders(requestLine: string): Promise<{ status: number; body: string; headers: Record<string, string> }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => socket.write(`${requestLine}\r\nHost: x\r\nConnection: close\r\n\r\n`));
      let data = "";
      socket.on("data", (c) => (data += c));
      socket.on("end", () => {
        const [head = "", body = ""] = data.split("\r\n\r\n");
        const headers = Object.fromEntries(
          head.split("\r\n").slice(1).map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
        );
        resolve({ status: Number(data.split(" ")[1]), body, headers });
      });
      socket.on("error", reject);
    });
  }

  it("answers each with a JSON 4xx before the app's handler, and passes normal requests", async () => {
    expect(await raw("TRACE /api/me HTTP/1.1")).toEqual({ status: 405, body: JSON.stringify({ error: "Method not allowed." }) });
    expect((await raw("OPTIONS * HTTP/1.1")).status).toBe(400);
    expect((await raw("GET /api/ns/chat_history/%FF HTTP/1.1")).status).toBe(400);
    expect(await raw("GET /api/me HTTP/1.1")).toEqual({ status: 200, body: "app" });
  });

  it("each refusal carries the security headers of every answer: CSP, Referrer-Policy, X-Frame-Options, HSTS (docs/issues.md #43, finding 6)", async () => {
    const ENV = ["NODE_ENV", "APP_URL", "NEXTAUTH_SECRET", "LLM_BASE_URL"] as const;
    const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
    Object.assign(process.env, { NODE_ENV: "production", APP_URL: "https://hush.example", NEXTAUTH_SECRET: "x".repeat(40), LLM_BASE_URL: "http://127.0.0.1:9/v1" });
    resetConfigForTests();
    try {
      for (const line of ["TRACE /api/ns/chat HTTP/1.1", "GET /api/ns/chat_history/%FF HTTP/1.1", "OPTIONS * HTTP/1.1"]) {
        const { status, headers } = await rawWithHeaders(line);
        expect(status, line).toBeGreaterThanOrEqual(400);
        for (const { key, value } of COMMON_HEADERS) expect(headers[key.toLowerCase()], `${line}: ${key}`).toBe(value);
        expect(headers["content-security-policy"], line).toBe(API_POLICY);
        expect(headers["strict-transport-security"], line).toBe("max-age=31536000; includeSubDomains");
        expect(headers["cache-control"], line).toBe("no-store");
      }
    } finally {
      for (const k of ENV) {
        if (saved[k] === undefined) delete (process.env as Record<string, string | undefined>)[k];
        else (process.env as Record<string, string | undefined>)[k] = saved[k];
      }
      resetConfigForTests();
    }
  });
});
