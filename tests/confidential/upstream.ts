/**
 * A local HTTP server standing in for the enclave behind the confidential relay. It records exactly what
 * reached it (method, path, raw headers, body bytes, whether the connection closed before the body
 * ended) and answers, by default, like a Tinfoil enclave does to an EHBP request: 200, a streamed body,
 * an Ehbp-Response-Nonce header and the usage in an X-Tinfoil-Usage-Metrics trailer. It decrypts
 * nothing: the relay must not care what the bytes are.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** The request target exactly as it arrived (path and query). */
  url: string;
  /** Header names lower-cased, as Node parsed them. */
  headers: http.IncomingHttpHeaders;
  /** Raw header pairs in arrival order. */
  rawHeaders: string[];
  body: Buffer;
  /** The body ended normally (false: the connection closed first). */
  complete: boolean;
  /** Resolves when the request's connection closed (normally or not). */
  closed: Promise<void>;
}

export interface UpstreamAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** The body, sent in these chunks (a small pause between them). */
  chunks?: Buffer[];
  /** Trailers after the body (chunked encoding). */
  trailers?: Record<string, string>;
  /** Milliseconds before the response headers. */
  delayMs?: number;
  /** Keep the response open after the chunks (until the client goes away). */
  hang?: boolean;
  /** Answer before reading the request body. */
  early?: boolean;
}

export interface FakeEnclave {
  origin: string;
  port: number;
  requests: RecordedRequest[];
  /** What the next requests get (default: `defaultAnswer()`). */
  answer: (req: RecordedRequest) => UpstreamAnswer;
  close(): Promise<void>;
}

export const NONCE = "ab".repeat(32);

/** The default answer: a streamed body of three chunks, a nonce header and a usage trailer. */
export function defaultAnswer(chunks: Buffer[] = [Buffer.from("\x00\x00\x00\x03abc"), Buffer.from("\xff\x00\x01"), Buffer.from("end")]): UpstreamAnswer {
  return {
    status: 200,
    headers: { "Content-Type": "text/event-stream", "Ehbp-Response-Nonce": NONCE, "X-Upstream-Secret": "not-for-the-client" },
    chunks,
    trailers: { "X-Tinfoil-Usage-Metrics": "prompt=11,completion=7,total=18" },
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFakeEnclave(): Promise<FakeEnclave> {
  const requests: RecordedRequest[] = [];
  const enclave: FakeEnclave = {
    origin: "",
    port: 0,
    requests,
    answer: () => defaultAnswer(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let closedResolve: () => void = () => undefined;
    const record: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body: Buffer.alloc(0),
      complete: false,
      closed: new Promise<void>((resolve) => (closedResolve = resolve)),
    };
    requests.push(record);
    res.once("close", () => closedResolve());
    let answered = false;
    const respond = async () => {
      if (answered) return;
      answered = true;
      const answer = enclave.answer(record);
      if (answer.delayMs) await pause(answer.delayMs);
      if (res.destroyed) return;
      const headers: Record<string, string> = { ...(answer.headers ?? {}) };
      if (answer.trailers) headers.Trailer = Object.keys(answer.trailers).join(", ");
      res.writeHead(answer.status ?? 200, headers);
      res.flushHeaders();
      for (const chunk of answer.chunks ?? []) {
        if (res.destroyed) return;
        res.write(chunk);
        await pause(5);
      }
      if (answer.hang) return;
      if (answer.trailers) res.addTrailers(answer.trailers);
      res.end();
    };
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      record.body = Buffer.concat(chunks);
      record.complete = true;
      void respond();
    });
    req.on("aborted", () => {
      record.body = Buffer.concat(chunks);
    });
    req.on("close", () => {
      if (!record.complete) record.body = Buffer.concat(chunks);
    });
    if (enclave.answer(record).early) void respond();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  enclave.port = port;
  enclave.origin = `http://127.0.0.1:${port}`;
  return enclave;
}
