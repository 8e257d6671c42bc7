/**
 * lib/server/llm/http-fetch.ts's keep-alive (docs/issues.md #24): a request that takes a kept-alive connection
 * the server had closed meanwhile goes again on another one, a bounded number of times; a request on a
 * new connection is not repeated; idle connections are closed after the server's Keep-Alive hint less a
 * second, or after `idleMs` without one. Against a local server written on node:net, so that the test
 * decides, connection by connection, what is answered and what is reset.
 */
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpFetch } from "@/lib/server/llm/http-fetch";

interface Seen {
  /** 1 for the first connection the server accepted. */
  connection: number;
  /** 1 for a connection's first request. */
  index: number;
  body: string;
}

interface RawServer {
  origin: string;
  seen: Seen[];
  /** Resolves with the ms between a connection's last answer and the client closing it. */
  closedAfterIdle: Promise<number>[];
  close(): Promise<void>;
}

/**
 * An HTTP/1.1 server that answers 400 with `{"n":<request number>}` (an error status: http-fetch reads
 * its body whole), with `keepAliveHeader` if given, or resets the connection when `reset(seen)` says so.
 */
async function rawServer(reset: (seen: Seen) => boolean, keepAliveHeader?: string): Promise<RawServer> {
  const seen: Seen[] = [];
  const closedAfterIdle: Promise<number>[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const connection = ++connections;
    let index = 0;
    let buffer = Buffer.alloc(0);
    let answeredAt = 0;
    closedAfterIdle.push(new Promise((resolve) => socket.once("end", () => resolve(Date.now() - answeredAt))));
    socket.on("error", () => undefined);
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString("latin1");
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const request: Seen = { connection, index: ++index, body: buffer.subarray(end + 4, end + 4 + length).toString("utf8") };
        buffer = buffer.subarray(end + 4 + length);
        seen.push(request);
        if (reset(request)) {
          socket.resetAndDestroy();
          return;
        }
        const body = JSON.stringify({ n: seen.length });
        const extra = keepAliveHeader ? `Keep-Alive: ${keepAliveHeader}\r\n` : "";
        socket.write(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`);
        answeredAt = Date.now();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    closedAfterIdle,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (fetcher: typeof fetch, origin: string, body: string) =>
  fetcher(`${origin}/v1/chat/completions`, { method: "POST", headers: { "Content-Type": "application/json" }, body });

describe("llmFetch's keep-alive connections", () => {
  it("sends a request again, body whole, when the server had closed the kept-alive connection it took", async () => {
    // The first connection answers its first request and resets at its second: the stale-connection race.
    server = await rawServer((request) => request.connection === 1 && request.index === 2);
    const fetcher = createHttpFetch();
    expect(await (await post(fetcher, server.origin, '{"turn":1}')).json()).toEqual({ n: 1 });

    const second = await post(fetcher, server.origin, '{"turn":2}');
    expect(second.status).toBe(400);
    expect(await second.json()).toEqual({ n: 3 });
    expect(server.seen).toEqual([
      { connection: 1, index: 1, body: '{"turn":1}' },
      { connection: 1, index: 2, body: '{"turn":2}' },
      { connection: 2, index: 1, body: '{"turn":2}' },
    ]);
  });

  it("does not send again a request reset on a new connection: fetch's TypeError, one request", async () => {
    server = await rawServer(() => true);
    const error = await post(createHttpFetch(), server.origin, "{}").then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError & { cause: NodeJS.ErrnoException }).cause.code).toBe("ECONNRESET");
    expect(server.seen).toHaveLength(1);
  });

  it("goes through at most three closed idle connections after the first, then fails", async () => {
    // Five connections open, each answers its first request; every later request on any of them is reset.
    server = await rawServer((request) => request.index > 1);
    const fetcher = createHttpFetch();
    await Promise.all([1, 2, 3, 4, 5].map((n) => post(fetcher, server!.origin, `{"open":${n}}`).then((r) => r.text())));
    expect(new Set(server.seen.map((s) => s.connection)).size).toBe(5);

    const error = await post(fetcher, server.origin, '{"turn":6}').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    const tries = server.seen.slice(5);
    expect(tries).toHaveLength(4);
    expect(tries.every((s) => s.index === 2 && s.body === '{"turn":6}')).toBe(true);
    expect(new Set(tries.map((s) => s.connection)).size).toBe(4);
  });

  it("closes an idle connection after the server's Keep-Alive hint less a second", async () => {
    server = await rawServer(() => false, "timeout=2");
    await (await post(createHttpFetch({ idleMs: 60_000 }), server.origin, "{}")).text();
    const idle = await server.closedAfterIdle[0]!;
    // The server itself would close at 2 s (it does not here): the client goes first, at about 1 s.
    expect(idle).toBeGreaterThanOrEqual(900);
    expect(idle).toBeLessThan(1_900);
  });

  it("closes an idle connection after idleMs when the server gives no hint", async () => {
    server = await rawServer(() => false);
    await (await post(createHttpFetch({ idleMs: 300 }), server.origin, "{}")).text();
    const idle = await server.closedAfterIdle[0]!;
    expect(idle).toBeGreaterThanOrEqual(250);
    expect(idle).toBeLessThan(5_000);
  });
});
