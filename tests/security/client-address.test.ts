import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addressKey, clientAddress, clientKey, fromTrustedProxy } from "@/lib/server/client-address";
import { ConfigError, parseConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { installPeerStamp, PEER_ADDRESS_HEADER } from "@/lib/server/peer-address";
import { fromPeer } from "../helpers/peer";

/**
 * The client address rule (docs/issues.md #10 "Client address and country", lib/server/client-address.ts): forwarded
 * headers count only from TRUSTED_PROXIES peers, read right to left past trusted hops; the peer comes
 * from the socket (lib/server/peer-address.ts), which a client cannot forge.
 */
const address = (headers: Record<string, string>) => clientAddress(new Request("http://localhost/", { headers }));

function trust(value: string | undefined) {
  if (value === undefined) delete process.env.TRUSTED_PROXIES;
  else process.env.TRUSTED_PROXIES = value;
  resetConfigForTests();
}

afterEach(() => {
  trust(undefined);
  delete process.env.CLIENT_IP_HEADER;
  delete process.env.IPV6_CLIENT_PREFIX;
  resetConfigForTests();
});

describe("clientKey (docs/issues.md #22: IPv6 clients by /64)", () => {
  const key = (peer: string) => clientKey(new Request("http://localhost/", { headers: fromPeer(peer) }));

  it("is the address for IPv4 and IPv4-mapped IPv6, the /64 for IPv6", () => {
    expect(key("198.51.100.7")).toBe("198.51.100.7");
    expect(key("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(key("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(key("2001:0DB8:0001:0002:ffff::1")).toBe("2001:db8:1:2::/64");
    expect(key("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientKey(new Request("http://localhost/"))).toBeNull();
  });

  it("follows IPV6_CLIENT_PREFIX, including prefixes inside a 16-bit group", () => {
    process.env.IPV6_CLIENT_PREFIX = "56";
    resetConfigForTests();
    expect(key("2001:db8:1:2ff:3:4:5:6")).toBe("2001:db8:1:200::/56");
    expect(addressKey("2001:db8:1:2:3:4:5:6", 128)).toBe("2001:db8:1:2:3:4:5:6/128");
    expect(addressKey("fe80::1%eth0", 64)).toBe("fe80::/64");
    expect(() => parseConfig({ IPV6_CLIENT_PREFIX: "8" })).toThrow();
  });
});

describe("clientAddress", () => {
  it("without TRUSTED_PROXIES is the socket peer: X-Forwarded-For is ignored", () => {
    expect(address(fromPeer("198.51.100.7", { "x-forwarded-for": "203.0.113.1" }))).toBe("198.51.100.7");
    expect(address(fromPeer("127.0.0.1", { "x-forwarded-for": "203.0.113.1, 203.0.113.2" }))).toBe("127.0.0.1");
    expect(address(fromPeer("::ffff:198.51.100.7"))).toBe("198.51.100.7");
  });

  it("is null without a stamped peer, whatever X-Forwarded-For says", () => {
    expect(address({ "x-forwarded-for": "203.0.113.1" })).toBeNull();
  });

  it("reads the right-most untrusted hop only when the peer is a trusted proxy", () => {
    trust("127.0.0.1, 10.0.0.0/8");
    // nginx on the same host appended the client's address; the client's own entries are left of it.
    expect(address(fromPeer("127.0.0.1", { "x-forwarded-for": "1.1.1.1, 203.0.113.9" }))).toBe("203.0.113.9");
    // Two trusted hops (a load balancer in 10/8, then nginx): skipped from the right.
    expect(address(fromPeer("127.0.0.1", { "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.1.2.3" }))).toBe("203.0.113.9");
    // A peer outside the list is the client, whatever it forwards.
    expect(address(fromPeer("198.51.100.7", { "x-forwarded-for": "203.0.113.9" }))).toBe("198.51.100.7");
    // A trusted peer without the header is itself the client.
    expect(address(fromPeer("10.9.9.9"))).toBe("10.9.9.9");
    expect(fromTrustedProxy(new Request("http://localhost/", { headers: fromPeer("10.9.9.9") }))).toBe(true);
    expect(fromTrustedProxy(new Request("http://localhost/", { headers: fromPeer("198.51.100.7") }))).toBe(false);
  });

  it("reads CLIENT_IP_HEADER from trusted proxies", () => {
    trust("loopback");
    process.env.CLIENT_IP_HEADER = "X-Real-IP";
    resetConfigForTests();
    expect(address(fromPeer("127.0.0.1", { "x-real-ip": "203.0.113.5", "x-forwarded-for": "9.9.9.9" }))).toBe("203.0.113.5");
  });

  it("refuses a malformed TRUSTED_PROXIES at start-up", () => {
    expect(() => parseConfig({ TRUSTED_PROXIES: "10.0.0.0/99" })).toThrow(ConfigError);
    expect(() => parseConfig({ TRUSTED_PROXIES: "nginx" })).toThrow(ConfigError);
    expect(parseConfig({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8, ::1" }).trustedProxies).toEqual(["127.0.0.1", "10.0.0.0/8", "::1"]);
  });
});

describe("the peer stamp on a real Node HTTP server", () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    installPeerStamp();
    server = http.createServer((req, res) => res.end(JSON.stringify(req.headers)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("replaces a forged peer header with the socket's address", async () => {
    const res = await fetch(url, { headers: { [PEER_ADDRESS_HEADER]: "203.0.113.1", "x-forwarded-for": "203.0.113.1" } });
    const seen = (await res.json()) as Record<string, string>;
    expect(seen[PEER_ADDRESS_HEADER]).toBe("127.0.0.1");
    expect(seen["x-forwarded-for"]).toBe("203.0.113.1");
  });
});
