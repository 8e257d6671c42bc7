import { execFileSync } from "node:child_process";
import diagnostics from "node:diagnostics_channel";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import tls from "node:tls";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fetchPage, isPublicAddress, MAX_REDIRECTS, ReadPageError, READ_PAGE_PORTS, type ReadPolicy } from "@/lib/server/read-page";

/**
 * The page read's guard against request forgery (docs/issues.md #51, "The forgery matrix"): every forged target is
 * refused before any connection. Two witnesses: a canary server listening on every local address (so a connection
 * to loopback, 0.0.0.0, this machine's own private addresses or a mapped form of them would reach it), and node's
 * `net.client.socket` diagnostics channel, which sees every client socket this process opens.
 */
let canary: http.Server;
let canaryPort = 0;
let canaryHits = 0;
let pages: http.Server;
let pagePort = 0;
let sockets = 0;
const seen: http.IncomingHttpHeaders[] = [];
const onSocket = () => void (sockets += 1);

beforeAll(async () => {
  diagnostics.subscribe("net.client.socket", onSocket);
  canary = http.createServer((_req, res) => res.end("canary"));
  canary.on("connection", () => void (canaryHits += 1));
  // "::" takes IPv4 too (dual stack): 127.0.0.1, ::1, 0.0.0.0 and ::ffff:127.0.0.1 all land here.
  await new Promise<void>((resolve) => canary.listen(0, "::", resolve));
  canaryPort = (canary.address() as AddressInfo).port;
  pages = http.createServer((req, res) => {
    seen.push(req.headers);
    const path = req.url ?? "/";
    const chain = /^\/chain\/(\d+)$/.exec(path);
    if (chain) {
      const left = Number(chain[1]);
      if (left === 0) return void res.writeHead(200, { "content-type": "text/plain" }).end("end of the chain");
      return void res.writeHead(302, { location: `/chain/${left - 1}`, "set-cookie": "session=abc" }).end();
    }
    if (path === "/to-loopback") return void res.writeHead(302, { location: `http://127.0.0.1:${canaryPort}/` }).end();
    if (path === "/to-localhost") return void res.writeHead(301, { location: `http://localhost:${canaryPort}/` }).end();
    if (path === "/to-hex") return void res.writeHead(307, { location: `http://0x7f000001:${canaryPort}/` }).end();
    if (path === "/to-file") return void res.writeHead(302, { location: "file:///etc/passwd" }).end();
    if (path === "/big") return void res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(50_000));
    if (path === "/slow") {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("."), 50);
      res.on("close", () => clearInterval(timer));
      return;
    }
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("hello page");
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  pagePort = (pages.address() as AddressInfo).port;
});

afterAll(async () => {
  diagnostics.unsubscribe("net.client.socket", onSocket);
  for (const s of [canary, pages]) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

beforeEach(() => {
  seen.length = 0;
});

/** A policy that lets the canary's port through the port rule, so only the address rule can stop a request to it. */
const canaryPolicy = (extra: Partial<ReadPolicy> = {}): ReadPolicy => ({ allowHosts: [], ports: [...READ_PAGE_PORTS, canaryPort], ...extra });
const allowPages = (extra: Partial<ReadPolicy> = {}): ReadPolicy => ({ allowHosts: [`127.0.0.1:${pagePort}`], ports: [...READ_PAGE_PORTS, canaryPort], ...extra });
const read = (url: string, policy: ReadPolicy, bounds: { maxBytes?: number; timeoutMs?: number } = {}) =>
  fetchPage(new URL(url), { policy, maxBytes: bounds.maxBytes ?? 1_000_000, timeoutMs: bounds.timeoutMs ?? 3_000 });
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => "read",
    (error: unknown) => (error instanceof ReadPageError ? error.kind : String(error)),
  );

/** `url` is refused, and neither a socket was opened nor the canary reached. */
async function expectRefusedUnconnected(url: string, policy: ReadPolicy = canaryPolicy()) {
  const before = { sockets, canaryHits };
  expect(await outcome(read(url, policy)), url).toBe("refused");
  // A connection the guard failed to stop would take a moment to arrive.
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect({ sockets, canaryHits }, url).toEqual(before);
}

describe("the forgery matrix: refused before any connection", () => {
  const forged = (port: () => number) => [
    `http://127.0.0.1:${port()}/`,
    `http://[::1]:${port()}/`,
    `http://0.0.0.0:${port()}/`,
    `http://10.1.2.3:${port()}/`,
    `http://172.16.0.1:${port()}/`,
    `http://172.31.255.254:${port()}/`,
    `http://192.168.1.1:${port()}/`,
    `http://169.254.169.254:${port()}/latest/meta-data/`,
    `http://100.64.0.1:${port()}/`,
    `http://100.127.255.254:${port()}/`,
    `http://224.0.0.1:${port()}/`,
    `http://[fe80::1]:${port()}/`,
    `http://[fc00::1]:${port()}/`,
    `http://0x7f000001:${port()}/`,
    `http://2130706433:${port()}/`,
    `http://0177.0.0.1:${port()}/`,
    `http://127.1:${port()}/`,
    `http://[::ffff:127.0.0.1]:${port()}/`,
    `http://[::ffff:169.254.169.254]:${port()}/`,
    `http://[::127.0.0.1]:${port()}/`,
    `http://localhost:${port()}/`,
    `https://localhost:${port()}/`,
  ];

  it("loopback, private, link-local and metadata, CGNAT, multicast, unspecified, and their numeric and IPv4-mapped forms", async () => {
    for (const url of forged(() => canaryPort)) await expectRefusedUnconnected(url);
  });

  it("the same on ports 80 and 443", async () => {
    for (const url of [...forged(() => 80), ...forged(() => 443)]) await expectRefusedUnconnected(url, { allowHosts: [] });
  });

  it("a name that resolves to loopback, or to a public and a private address, asked once", async () => {
    const asked: string[] = [];
    const resolve = async (name: string) => {
      asked.push(name);
      return name === "mixed.test" ? ["93.184.216.34", "10.0.0.1"] : ["127.0.0.1"];
    };
    await expectRefusedUnconnected(`http://rebind.test:${canaryPort}/`, canaryPolicy({ resolve }));
    await expectRefusedUnconnected("http://mixed.test/", canaryPolicy({ resolve }));
    expect(asked).toEqual(["rebind.test", "mixed.test"]);
  });

  it("a non-http scheme, a port other than 80 and 443, and credentials in the URL", async () => {
    for (const url of [`ftp://127.0.0.1:${canaryPort}/`, "file:///etc/passwd", `ws://127.0.0.1:${canaryPort}/`, "gopher://93.184.216.34/"]) await expectRefusedUnconnected(url);
    // Ports: the default policy, whatever the address.
    const defaults: ReadPolicy = { allowHosts: [], resolve: async () => ["93.184.216.34"] };
    for (const url of [`http://127.0.0.1:${canaryPort}/`, "http://93.184.216.34:8080/", "https://example.com:8443/", "http://example.com:22/"]) await expectRefusedUnconnected(url, defaults);
    await expectRefusedUnconnected("http://user:secret@example.com/", defaults);
  });

  it("a redirect from an allowed host to loopback (dotted, by name, hex) or to another scheme: the first hop is read, the second never connects", async () => {
    for (const path of ["/to-loopback", "/to-localhost", "/to-hex", "/to-file"]) {
      const before = { sockets, canaryHits };
      expect(await outcome(read(`http://127.0.0.1:${pagePort}${path}`, allowPages())), path).toBe("refused");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(canaryHits, path).toBe(before.canaryHits);
      // Only the first hop's connection, to the allowed host.
      expect(sockets - before.sockets, path).toBe(1);
    }
  });
});

describe("an allowed host and the bounds", () => {
  it("an allowed host:port is read although it is loopback; with its name, the connection goes to the one address checked", async () => {
    const page = await read(`http://127.0.0.1:${pagePort}/`, allowPages());
    expect(page.bytes.toString()).toBe("hello page");
    expect(page.contentType).toBe("text/plain; charset=utf-8");
    // A name no resolver knows, answered once by the policy's resolver: the request reaches that address.
    const asked: string[] = [];
    const named = await read(`http://pinned.test:${pagePort}/`, { allowHosts: [`pinned.test:${pagePort}`], resolve: async (n) => {
        asked.push(n);
        return ["127.0.0.1"];
      } });
    expect(named.bytes.toString()).toBe("hello page");
    expect(asked).toEqual(["pinned.test"]);
    expect(seen.at(-1)!.host).toBe(`pinned.test:${pagePort}`);
    // Allowed is host and port: the same host on another port is not.
    await expectRefusedUnconnected(`http://127.0.0.1:${canaryPort}/`, allowPages());
  });

  it("sends a User-Agent naming Hush and no cookie or credential, not even one set by a redirect", async () => {
    const page = await read(`http://127.0.0.1:${pagePort}/chain/2`, allowPages());
    expect(page.bytes.toString()).toBe("end of the chain");
    expect(page.url.pathname).toBe("/chain/0");
    expect(seen).toHaveLength(3);
    for (const headers of seen) {
      expect(headers["user-agent"]).toMatch(/^Hush-ReadPage\//);
      expect(headers.cookie).toBeUndefined();
      expect(headers.authorization).toBeUndefined();
      expect(headers.referer).toBeUndefined();
    }
  });

  it(`follows at most ${MAX_REDIRECTS} redirects`, async () => {
    expect(await outcome(read(`http://127.0.0.1:${pagePort}/chain/${MAX_REDIRECTS}`, allowPages()))).toBe("read");
    expect(await outcome(read(`http://127.0.0.1:${pagePort}/chain/${MAX_REDIRECTS + 1}`, allowPages()))).toBe("redirects");
    expect(seen).toHaveLength(MAX_REDIRECTS + 1 + MAX_REDIRECTS + 1);
  });

  it("cuts the body at maxBytes and gives up at timeoutMs, the whole read", async () => {
    const big = await read(`http://127.0.0.1:${pagePort}/big`, allowPages(), { maxBytes: 1000 });
    expect(big.bytes.length).toBe(1000);
    expect(big.cut).toBe(true);
    const whole = await read(`http://127.0.0.1:${pagePort}/big`, allowPages(), { maxBytes: 50_000 });
    expect(whole.cut).toBe(false);
    expect(await outcome(read(`http://127.0.0.1:${pagePort}/slow`, allowPages(), { timeoutMs: 300 }))).toBe("timeout");
  });
});

describe("https, pinned", () => {
  it("connects to the checked address with the URL's name as TLS server name, and verifies the certificate", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "read-page-tls-"));
    const names: string[] = [];
    let served = 0;
    let server: https.Server | null = null;
    try {
      // A self-signed certificate for pinned.test: no CA vouches for it, so the read fails once the handshake began.
      const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
      execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=pinned.test", "-keyout", key, "-out", cert, "-days", "1"], { stdio: "ignore" });
      const context = tls.createSecureContext({ key: readFileSync(key), cert: readFileSync(cert) });
      server = https.createServer({ SNICallback: (name, done) => {
            names.push(name);
            done(null, context);
          } }, (_req, res) => {
        served += 1;
        res.end("page");
      });
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as AddressInfo).port;
      const policy: ReadPolicy = { allowHosts: [`pinned.test:${port}`], resolve: async () => ["127.0.0.1"] };
      expect(await outcome(read(`https://pinned.test:${port}/`, policy))).toBe("unavailable");
      expect(names).toEqual(["pinned.test"]);
      expect(served).toBe(0);
    } finally {
      server?.closeAllConnections();
      if (server) await new Promise((resolve) => server!.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("isPublicAddress (ipaddr.js ranges)", () => {
  it("public unicast only", () => {
    for (const a of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ["127.0.0.1", "::1", "0.0.0.0", "::", "10.0.0.1", "172.20.1.1", "192.168.0.1", "169.254.169.254", "100.64.0.1", "224.0.0.1", "255.255.255.255", "fe80::1", "fd00::1", "ff02::1", "::ffff:10.0.0.1", "::7f00:1", "64:ff9b::7f00:1", "2002:7f00:1::", "not an address"]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });
});
