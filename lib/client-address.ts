import "server-only";
import { getConfig } from "@/lib/config";

/**
 * The caller's network address, for the visitor quota and the country lookup only: never stored or
 * logged. Read from CLIENT_IP_HEADER (default X-Forwarded-For, whose last entry is the one added by
 * the nearest proxy; `next start` alone sets it to the socket address when absent). An IPv4-mapped
 * IPv6 address is returned as IPv4. Null when there is none.
 */
export function clientAddress(request: Request): string | null {
  const header = getConfig().CLIENT_IP_HEADER;
  const raw = request.headers.get(header);
  if (!raw) return null;
  const last = raw.split(",").map((s) => s.trim()).filter(Boolean).pop();
  if (!last) return null;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(last);
  return mapped ? mapped[1]! : last;
}
