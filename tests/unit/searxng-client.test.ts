import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchSearxng, SearchError } from "@/lib/server/search/searxng";

/** The SearXNG client's bounds (docs/web-search.md), against a local server speaking its JSON API. */
const ANSWER = JSON.stringify({ results: [{ title: "Kākāpō", url: "https://example.org/k", content: "A parrot." }, { url: "ftp://x" }] });
const MAX_BYTES = 64 * 1024;
let server: http.Server;
let base = "";
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://x");
    const q = url.searchParams.get("q") ?? "";
    hits.push(`${url.pathname}?${q}`);
    if (url.pathname === "/canary") return void response.end("{}");
    if (q === "ok") return void response.writeHead(200, { "content-type": "application/json" }).end(ANSWER);
    if (q === "redirect") return void response.writeHead(302, { location: `${base}/canary` }).end();
    if (q === "error") return void response.writeHead(500).end("boom");
    if (q === "large") {
      response.writeHead(200, { "content-type": "application/json" });
      response.write(" ".repeat(MAX_BYTES));
      return void response.end(ANSWER);
    }
    if (q === "gzip-bomb") {
      const bomb = zlib.gzipSync(Buffer.alloc(8 * MAX_BYTES, 0x20));
      return void response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(bomb);
    }
    if (q === "gzip") {
      return void response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(zlib.gzipSync(ANSWER));
    }
    if (q === "trickle") {
      response.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => response.write(" "), 50);
      response.on("close", () => clearInterval(timer));
      return;
    }
    if (q === "not-json") return void response.writeHead(200).end("<html>");
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const search = (query: string, timeoutMs = 2_000) => searchSearxng({ baseUrl: base, query, timeoutMs, maxResults: 5, maxBytes: MAX_BYTES });
const kind = (query: string, timeoutMs?: number) =>
  search(query, timeoutMs).then(
    () => "answered",
    (error: unknown) => (error instanceof SearchError ? error.kind : String(error)),
  );

describe("searchSearxng", () => {
  it("returns the http(s) results of a JSON answer, plain or gzip-encoded", async () => {
    const expected = [{ title: "Kākāpō", url: "https://example.org/k", content: "A parrot." }];
    expect(await search("ok")).toEqual(expected);
    expect(await search("gzip")).toEqual(expected);
  });

  it("does not follow a redirect: the engine counts as unavailable and the target is never asked", async () => {
    hits.length = 0;
    expect(await kind("redirect")).toBe("unavailable");
    expect(hits).toEqual(["/search?redirect"]);
  });

  it("refuses answers past maxBytes, counted after decoding, and non-JSON answers", async () => {
    expect(await kind("large")).toBe("bad_response");
    expect(await kind("gzip-bomb")).toBe("bad_response");
    expect(await kind("not-json")).toBe("bad_response");
    expect(await kind("error")).toBe("unavailable");
  });

  it("times out an answer that trickles past timeoutMs", async () => {
    expect(await kind("trickle", 300)).toBe("timeout");
  });

  it("still answers after the refusals, on the kept-alive connections", async () => {
    expect(await search("ok")).toHaveLength(1);
  });
});
