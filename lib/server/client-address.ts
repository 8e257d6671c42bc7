import "server-only";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";
import { getConfig, type Config } from "@/lib/server/config";
import { PEER_ADDRESS_HEADER } from "@/lib/server/peer-stamp";

/**
 * The caller's network address: the one rule used everywhere an address counts (visitor quota,
 * sign-in mail limit, auth-sync limit, pricing country). Never stored or logged in clear.
 *
 * 1. The TCP peer comes from PEER_ADDRESS_HEADER, which lib/server/peer-stamp.ts writes from the socket
 *    for every request (a client cannot set it: the stamp replaces any value sent).
 * 2. With no TRUSTED_PROXIES, or a peer outside them, the peer is the client: X-Forwarded-For (and
 *    COUNTRY_HEADER, see lib/server/geo.ts) are ignored, so rotating them changes nothing.
 * 3. Behind trusted proxies, CLIENT_IP_HEADER (default X-Forwarded-For) is read from the right, past
 *    every trusted hop, and the first untrusted address is the client (proxy-addr, as Express does).
 *    Entries left of it were written by the client and are never read.
 *
 * IPv4-mapped IPv6 addresses (::ffff:1.2.3.4) are returned as IPv4. Null when there is no stamp
 * (a request Next accepted before instrumentation ran, or a handler called without one): callers
 * count those together as one unknown client.
 */
export function clientAddress(request: Request): string | null {
  const peer = peerAddress(request);
  if (!peer) return null;
  const config = getConfig();
  const trust = trustFunction(config);
  if (!trust(peer, 0)) return peer;
  const forwarded = request.headers.get(config.CLIENT_IP_HEADER) ?? undefined;
  // proxy-addr reads a Node request; only these two fields are used.
  const fakeRequest = {
    connection: { remoteAddress: peer },
    socket: { remoteAddress: peer },
    headers: { "x-forwarded-for": forwarded },
  } as unknown as Parameters<typeof proxyaddr>[0];
  return unmap(proxyaddr(fakeRequest, trust));
}

/**
 * The key per-address limits count a client by (visitor quota, sign-in mail limit, rate limits, the
 * confidential relay's block list): an IPv4 address as itself (IPv4-mapped IPv6 too), an
 * IPv6 address as its IPV6_CLIENT_PREFIX network (default /64) in canonical form, e.g.
 * "2001:db8:1:2::/64", since one subscriber commonly holds a whole /64. Null when the address is unknown
 * (see clientAddress); a value that is not an IP address is returned as it is.
 */
export function clientKey(request: Request): string | null {
  const address = clientAddress(request);
  return address === null ? null : addressKey(address, getConfig().IPV6_CLIENT_PREFIX);
}

/** clientKey's rule for one address and an IPv6 prefix length in bits (16–128). */
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

/** The stamped socket peer, IPv4-mapped addresses as IPv4, or null. */
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
