import type { IncomingMessage, ServerResponse } from "node:http";
import http from "node:http";
import { allowedMethods } from "@/lib/server/api/methods";
import { getConfig } from "@/lib/server/config";
import { apiPolicyHeaders, COMMON_HEADERS } from "@/lib/server/security/headers";

// Refuses with a 4xx what Next would answer 500 (an unknown method, `OPTIONS *`, bad %-encoding), by wrapping
// `Server.prototype.emit`: Node's Server has no hook before routing.

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function refusalFor(method: string | undefined, target: string | undefined): { status: number; error: string; allow?: string } | null {
  if (!method || !METHODS.has(method.toUpperCase())) {
    const path = target?.startsWith("/") ? target.split(/[?#]/, 1)[0]! : null;
    const allow = (path && allowedMethods(path)) ?? [...METHODS].join(", ");
    return { status: 405, error: "Method not allowed.", allow };
  }
  if (!target || !target.startsWith("/") || target.startsWith("//")) {
    return { status: 400, error: "The request target must be a path." };
  }
  const path = target.split(/[?#]/, 1)[0]!;
  try {
    decodeURIComponent(path);
  } catch {
    return { status: 400, error: "The request path has malformed percent-encoding." };
  }
  return null;
}

/** The security headers of next.config.ts and proxy.ts, which these refusals never reach. */
function refusalHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { key, value } of COMMON_HEADERS) headers[key] = value;
  let options = { production: false, appUrl: "" };
  try {
    const config = getConfig();
    options = { production: config.isProduction, appUrl: config.APP_URL };
  } catch {
    // Configuration errors are reported at start-up.
  }
  return Object.assign(headers, apiPolicyHeaders(options));
}

function refuse(res: ServerResponse, refusal: { status: number; error: string; allow?: string }): void {
  const body = JSON.stringify({ error: refusal.error });
  const headers: Record<string, string | number> = {
    ...refusalHeaders(),
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    Connection: "close",
  };
  if (refusal.allow) headers.Allow = refusal.allow;
  res.writeHead(refusal.status, headers);
  res.end(body);
}

const INSTALLED = Symbol.for("hush.requestGuard");

export function installRequestGuard(): void {
  const proto = http.Server.prototype as http.Server & { [INSTALLED]?: boolean };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function guardedEmit(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      const refusal = refusalFor(req.method, req.url);
      if (refusal) {
        req.resume();
        refuse(res, refusal);
        return true;
      }
    }
    return (emit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
  } as typeof proto.emit;
}
