/**
 * A stand-in for the AUTH_SYNC_URL receiver (docs/product.md §7 auth-token sync), as a process (Playwright's
 * webServer runs it):
 *   npx tsx tests/helpers/auth-sync-receiver.ts --port 4050 --secret <AUTH_SYNC_SECRET>
 * Every request to any other path is recorded and answered 204, as a receiver would; a bearer token
 * is verified the way lib/server/auth/sync.ts says a receiver does (HS256 with the shared secret, audience =
 * this receiver's origin) and its claims recorded.
 *   GET /health                 {"ok":true}
 *   GET /__test/received        the requests received, oldest first:
 *                               [{ method, path, authorization, receivedAt, claims | null, error | null }]
 */
import http from "node:http";
import { jwtVerify, type JWTPayload } from "jose";

interface Received {
  method: string;
  path: string;
  authorization: string | null;
  receivedAt: number;
  claims: JWTPayload | null;
  error: string | null;
}

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1]! : fallback;
}

const port = Number(arg("--port", process.env.E2E_AUTH_SYNC_PORT ?? "4050"));
const secret = new TextEncoder().encode(arg("--secret", process.env.AUTH_SYNC_SECRET ?? ""));
const origin = `http://127.0.0.1:${port}`;
const received: Received[] = [];

async function verify(authorization: string | null): Promise<{ claims: JWTPayload | null; error: string | null }> {
  const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
  if (!token) return { claims: null, error: authorization ? "not a bearer token" : null };
  try {
    const { payload } = await jwtVerify(token, secret, { audience: origin, algorithms: ["HS256"] });
    return { claims: payload, error: null };
  } catch (error) {
    return { claims: null, error: error instanceof Error ? error.message : "invalid token" };
  }
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", origin);
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === "/health") return json(200, { ok: true });
  if (url.pathname === "/__test/received") return json(200, received);
  const authorization = req.headers.authorization ?? null;
  req.resume();
  req.on("end", () => {
    void verify(authorization).then(({ claims, error }) => {
      received.push({ method: req.method ?? "", path: url.pathname, authorization, receivedAt: Date.now(), claims, error });
      res.writeHead(204).end();
    });
  });
});

server.listen(port, "127.0.0.1", () => console.log(`[auth-sync-receiver] on ${origin}`));
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
