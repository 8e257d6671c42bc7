import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import { E2E_OIDC_PORT, E2E_STRIPE_PORT, E2E_GOOGLE_CLIENT_ID } from "../../playwright.config";

/**
 * The server of e2e/robustness.spec.ts (docs/issues.md #10): `server.mjs` of the production build on a free port,
 * its output captured so that its log can be read, on the run's test peers (fake LLM, SMTP, OpenID Connect, Stripe),
 * and the raw request helpers the spec sends with (node:http without path normalisation, raw socket bytes).
 */

const LLM_PORT = Number(process.env.E2E_LLM_PORT ?? 4010);
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 4025);
const DATA_DIR = `${process.env.E2E_DATA_DIR ?? ".data-e2e"}-robustness`;

let server: ChildProcess | undefined;
let port = 0;
let origin = "";
const output: string[] = [];

/** The running server: its port, origin (http://127.0.0.1:port) and every line it printed so far. */
export const target = {
  get port() {
    return port;
  },
  get origin() {
    return origin;
  },
  output,
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port: p } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(p));
    });
  });
}






export interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** One request with node:http (no normalisation of the path), 10 s at most. */
export function send(req: Sent): Promise<{ status: number; body: string }> {
  return sendWithHeaders(req);
}

/** `send`, with the response headers too. */
export function sendWithHeaders(req: Sent): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        host: "127.0.0.1",
        port,
        method: req.method,
        path: req.path,
        // Node frames a DELETE's body only with a Content-Length (it sends no chunked DELETE by default).
        headers: req.body !== undefined && !Object.keys(req.headers ?? {}).some((h) => /^(content-length|transfer-encoding)$/i.test(h)) ? { ...req.headers, "content-length": String(Buffer.byteLength(req.body)) } : req.headers,
        timeout: 10_000,
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on("error", reject);
      },
    );
    r.on("timeout", () => r.destroy(new Error("timeout")));
    r.on("error", reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/**
 * Raw request bytes over a socket (for request-targets node:http will not send, e.g. `*` or raw
 * UTF-8); resolves with the status code. A server that answers early and resets the connection while
 * the body is still being written has still answered: its status counts.
 */
export function sendRaw(text: string | Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    // write, not end: a half-closed connection makes Node's server drop the request unanswered.
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    let data = "";
    const settle = (error?: Error) => {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(data);
      if (status) resolve(Number(status[1]));
      else reject(error ?? new Error(`no status line: ${JSON.stringify(data.slice(0, 80))}`));
    };
    socket.setTimeout(15_000, () => socket.destroy(new Error("timeout")));
    socket.on("data", (c) => (data += c.toString("latin1")));
    socket.on("close", () => settle());
    socket.on("error", (error) => settle(error));
  });
}

/** A request as raw HTTP/1.1 bytes (Connection: close, Content-Length from the body). */
export function rawRequest(req: Sent): Buffer {
  const body = req.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, "utf8");
  const head = [`${req.method} ${req.path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, "Connection: close"];
  for (const [name, value] of Object.entries(req.headers ?? {})) head.push(`${name}: ${value}`);
  if (req.body !== undefined) head.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "utf8"), body]);
}

/** Lines of the server's output that are not one JSON record (Next's own start-up banner aside). */
export function nonJsonLines(): string[] {
  return output.filter((line) => {
    const plain = line.replace(/\u001b\[[0-9;]*m/g, "");
    if (/^\s*$|^[▲✓⚠] |^- (Local|Network|Environments):|^npm warn/.test(plain)) return false;
    try {
      return typeof JSON.parse(line) !== "object";
    } catch {
      return true;
    }
  });
}

/** Start the spec's own production server on a free port and wait until it answers "/" (90 s at most). */
export async function startServer(): Promise<void> {
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  // As `npm start` runs it: with the header and body timeouts of deploy/http-timeouts.cjs.
  server = spawn(process.execPath, ["--require", "./deploy/http-timeouts.cjs", "server.mjs", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      APP_URL: origin,
      DATA_DIR,
      DATABASE_URL: "",
      REDIS_URL: "",
      NEXTAUTH_SECRET: "e2e-robustness-secret-0123456789abcdef0123456789",
      LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
      LLM_API_KEY: "test",
      LLM_TIMEOUT_MS: "5000",
      EMAIL_SERVER: `smtp://127.0.0.1:${SMTP_PORT}`,
      EMAIL_FROM: "Hush <no-reply@hush.test>",
      GOOGLE_CLIENT_ID: E2E_GOOGLE_CLIENT_ID,
      GOOGLE_CLIENT_SECRET: "e2e-google-secret",
      GOOGLE_ISSUER: `http://127.0.0.1:${E2E_OIDC_PORT}`,
      STRIPE_SECRET_KEY: "sk_test_e2e",
      STRIPE_WEBHOOK_SECRET: "whsec_e2e_robustness",
      STRIPE_API_BASE: `http://127.0.0.1:${E2E_STRIPE_PORT}`,
      QUOTA_VISITOR_PER_DAY: "100000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let partial = "";
  const collect = (chunk: Buffer) => {
    const parts = (partial + chunk.toString("utf8")).split("\n");
    partial = parts.pop() ?? "";
    output.push(...parts);
  };
  server.stdout!.on("data", collect);
  server.stderr!.on("data", collect);
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await send({ method: "GET", path: "/" })).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${output.join("\n")}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Stop the server and remove its data folder. */
export function stopServer(): void {
  server?.kill("SIGTERM");
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
}
