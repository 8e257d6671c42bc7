import "server-only";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";
import { getConfig, type Config } from "@/lib/server/config";
import { PEER_ADDRESS_HEADER } from "@/lib/server/peer-address";

/**
 * The caller's address, never stored or logged in clear: the socket peer stamped by lib/server/peer-address.ts, or
 * behind TRUSTED_PROXIES the first untrusted hop of CLIENT_IP_HEADER read from the right (proxy-addr).
 * Null without a stamp: callers count those as one unknown client.
 */
export function clientAddress(request: Request): string | null {
  const peer = peerAddress(request);
  if (!peer) return null;
  const config = getConfig();
  const trust = trustFunction(config);
  if (!trust(peer, 0)) return peer;
  const forwarded = request.headers.get(config.CLIENT_IP_HEADER) ?? undefined;
  // proxyaddr's type asks for a whole IncomingMessage; it reads only these fields.
  // eslint-disable-next-line no-restricted-syntax
  const fakeRequest = {
    connection: { remoteAddress: peer },
    socket: { remoteAddress: peer },
    headers: { "x-forwarded-for": forwarded },
  } as unknown as Parameters<typeof proxyaddr>[0];
  return unmap(proxyaddr(fakeRequest, trust));
}

/** The key per-address limits use: an IPv4 address, or an IPv6 address's IPV6_CLIENT_PREFIX network (default /64). */
export function clientKey(request: Request): string | null {
  const address = clientAddress(request);
  return address === null ? null : addressKey(address, getConfig().IPV6_CLIENT_PREFIX);
}

export function addressKey(address: string, ipv6Prefix: number): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return address;
  }
  if (parsed.kind() === "ipv4") return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.map((part, i) => {
    const kept = Math.min(16, Math.max(0, ipv6Prefix - i * 16));
    return kept === 0 ? 0 : part & (0xffff << (16 - kept)) & 0xffff;
  });
  return `${new ipaddr.IPv6(parts).toString()}/${ipv6Prefix}`;
}

/** True when the request came straight from a TRUSTED_PROXIES address (its headers may be believed). */
export function fromTrustedProxy(request: Request): boolean {
  const peer = peerAddress(request);
  return peer !== null && trustFunction(getConfig())(peer, 0);
}

function peerAddress(request: Request): string | null {
  const raw = request.headers.get(PEER_ADDRESS_HEADER)?.trim();
  return raw ? unmap(raw) : null;
}

function unmap(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

let compiled: { config: Config; trust: (address: string, index: number) => boolean } | undefined;

function trustFunction(config: Config): (address: string, index: number) => boolean {
  if (compiled?.config !== config) {
    const list = config.trustedProxies;
    compiled = { config, trust: list.length ? proxyaddr.compile(list) : () => false };
  }
  return compiled.trust;
}
