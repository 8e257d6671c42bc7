import "server-only";
import { promises as dns } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The guard of a page read against server-side request forgery (docs/issues.md #51): which URLs may be fetched and
 * at which address. Checked for the first URL and again for each redirect hop, before any connection.
 * Address classes come from ipaddr.js; numeric host forms (decimal, octal, hex IPv4) are normalised to dotted
 * form by the WHATWG URL parser before they get here, so they are classified as the address they are.
 */

/** Why a page was not read. */
export type ReadPageErrorKind =
  /** The URL or an address it resolves to is not allowed (scheme, port, credentials, non-public address). */
  | "refused"
  /** More than MAX_REDIRECTS redirects, or a redirect without a usable Location. */
  | "redirects"
  /** No answer within READ_PAGE_TIMEOUT_MS. */
  | "timeout"
  /** The name did not resolve, the connection failed, or the server answered an error status. */
  | "unavailable"
  /** Not HTML, plain text or PDF, or a PDF that could not be read. */
  | "unsupported"
  /** Nothing readable in the page. */
  | "empty";

/** A page read that did not happen or did not finish; `kind` says why (no URL or page text in the message). */
export class ReadPageError extends Error {
  constructor(readonly kind: ReadPageErrorKind) {
    super(`page read ${kind}`);
    this.name = "ReadPageError";
  }
}

/** The ports a page may be read from, unless its host:port is allowed by READ_PAGE_ALLOW_HOSTS. */
export const READ_PAGE_PORTS: readonly number[] = [80, 443];

/** What a read may reach. */
export interface ReadPolicy {
  /** READ_PAGE_ALLOW_HOSTS entries (`host:port`, as lib/server/config.ts writes them): any address, that port. */
  allowHosts: readonly string[];
  /** The ports allowed for other hosts (READ_PAGE_PORTS). */
  ports?: readonly number[];
  /** Resolve a name to its addresses (default: the system resolver, all addresses). */
  resolve?: (hostname: string) => Promise<string[]>;
}

/** A URL that passed the guard, and the one address its connection must use. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
  /** A lookup for node:http that answers `address` whatever it is asked: the connection is pinned to it. */
  lookup: LookupFunction;
}

// IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291): ipaddr.js calls it unicast.
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/**
 * True for a public unicast address: ipaddr.js's range "unicast", an IPv4-mapped IPv6 address judged as its IPv4
 * address. Loopback, private, link-local (the metadata address 169.254.169.254 among them), CGNAT, multicast,
 * unspecified, reserved, NAT64, 6to4 and Teredo are not public.
 * @param address an IP address in any form ipaddr.js parses; anything else is not public
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6") {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else if (v6.match(IPV4_COMPATIBLE)) return false;
  }
  return ip.range() === "unicast";
}

/** The system resolver's addresses for a name (every family; in its own order). */
async function systemResolve(hostname: string): Promise<string[]> {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

/**
 * Check one URL (the first, or a redirect's) and resolve its host once: http or https, no credentials, port 80 or
 * 443 and every address public, unless `host:port` is in `policy.allowHosts`.
 * @throws ReadPageError "refused" for a URL or address not allowed, "unavailable" when the name does not
 *   resolve; the abort reason when `signal` aborts first
 */
export async function checkTarget(url: URL, policy: ReadPolicy, signal?: AbortSignal): Promise<CheckedTarget> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ReadPageError("refused");
  if (url.username || url.password) throw new ReadPageError("refused");
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  const allowed = policy.allowHosts.includes(`${url.hostname}:${port}`);
  if (!allowed && !(policy.ports ?? READ_PAGE_PORTS).includes(port)) throw new ReadPageError("refused");
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: string[];
  if (ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await abortable((policy.resolve ?? systemResolve)(host), signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error instanceof ReadPageError ? error : new ReadPageError("unavailable");
    }
  }
  if (addresses.length === 0) throw new ReadPageError("unavailable");
  // Every address is checked, not just the one used: a name must not mix public and private answers.
  if (!allowed && !addresses.every(isPublicAddress)) throw new ReadPageError("refused");
  const address = addresses[0]!;
  const family = ipaddr.parse(address).kind() === "ipv6" ? 6 : 4;
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return { url, address, family, lookup };
}

/** `promise`, or the abort reason as soon as `signal` aborts (a DNS lookup cannot be cancelled). */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
