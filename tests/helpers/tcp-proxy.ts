/**
 * A TCP pass-through for fault tests: clients connect to `port`, bytes go to `target`. `stop()` closes
 * the listener and cuts every open connection (the server "goes away": new connections are refused),
 * `start()` listens again on the same port (it "comes back").
 */
import net from "node:net";

export interface TcpProxy {
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let boundPort = port;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          sock.on("close", () => sockets.delete(sock));
          sock.on("error", () => undefined);
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      s.once("error", reject);
      s.listen(boundPort, "127.0.0.1", () => {
        boundPort = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });
  const stop = async () => {
    const s = server;
    server = null;
    for (const sock of sockets) sock.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return { get port() { return boundPort; }, stop, start: listen, close: stop };
}
