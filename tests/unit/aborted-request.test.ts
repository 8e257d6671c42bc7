import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
// The body copy Next's proxy makes of every request it sees (server.mjs hands those requests to Next).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { getCloneableBody } = require("next/dist/server/body-streams.js") as {
  getCloneableBody: (req: http.IncomingMessage) => { cloneBodyStream(): NodeJS.ReadableStream; finalize(): Promise<void> };
};

/**
 * docs/issues.md #56: a client gone mid-answer (Stop) after Next's proxy copied the request body: Node destroys the
 * request with "aborted" (ECONNRESET), and only server.mjs's 'close' guard keeps it from being uncaught.
 */
async function abortMidAnswer(guard: boolean): Promise<unknown[]> {
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.prependListener("uncaughtException", onUncaught);
  const server = http.createServer(async (req, res) => {
    if (guard) res.once("close", () => req.on("error", () => undefined));
    const body = getCloneableBody(req);
    body.cloneBodyStream().resume();
    await new Promise((resolve) => req.once("end", resolve));
    await body.finalize();
    res.writeHead(200, { "content-type": "text/event-stream" });
    const timer = setInterval(() => res.write("data: part\n\n"), 30);
    res.once("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    const request = http.request({ host: "127.0.0.1", port, method: "POST" }, (response) => {
      response.on("error", () => undefined);
      response.once("data", () => setTimeout(() => (request.destroy(), resolve()), 60));
    });
    request.on("error", () => undefined);
    request.end('{"messages":[]}');
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  process.off("uncaughtException", onUncaught);
  return uncaught;
}

describe("a request aborted mid-answer (docs/issues.md #56)", () => {
  it("without a listener after Next's body copy, Node's 'aborted' error is uncaught", async () => {
    const uncaught = await abortMidAnswer(false);
    expect(uncaught.map((e) => (e as NodeJS.ErrnoException).code)).toEqual(["ECONNRESET"]);
  });

  it("with server.mjs's guard, nothing is uncaught", async () => {
    expect(await abortMidAnswer(true)).toEqual([]);
  });
});
