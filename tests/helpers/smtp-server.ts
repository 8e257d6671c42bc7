/**
 * The test SMTP server as a process (Playwright's webServer runs it):
 *   npx tsx tests/helpers/smtp-server.ts --smtp-port 4025 --http-port 4026
 * SMTP on 127.0.0.1:<smtp-port> receives the app's mail; HTTP on 127.0.0.1:<http-port> shows it:
 *   GET /health                      {"ok":true}
 *   GET /messages?to=<address>       received messages to that address (all without `to`), oldest first
 *   DELETE /messages                 forget every message
 */
import http from "node:http";
import { startSmtpServer } from "./smtp";

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

async function main(): Promise<void> {
  const smtp = await startSmtpServer({ port: arg("--smtp-port", 4025) });
  const httpPort = arg("--http-port", 4026);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/health") return send(200, { ok: true });
    if (url.pathname === "/messages" && req.method === "DELETE") {
      smtp.messages.length = 0;
      return send(200, { ok: true });
    }
    if (url.pathname === "/messages") {
      const to = url.searchParams.get("to")?.toLowerCase();
      return send(200, to ? smtp.messages.filter((m) => m.to.includes(to)) : smtp.messages);
    }
    send(404, { error: "not found" });
  });
  server.listen(httpPort, "127.0.0.1", () => {
    console.log(`[smtp-server] SMTP on 127.0.0.1:${smtp.port}, mail over HTTP on 127.0.0.1:${httpPort}`);
  });
  const stop = () => {
    server.close();
    void smtp.close().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

void main();
