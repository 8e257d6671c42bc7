/**
 * A browser stand-in for route tests of the sign-in flow: calls the /api/auth/* handler directly
 * (lib/server/auth/route.ts) with a cookie jar, the way the pages' scripts call it (same-origin Origin
 * header, next-auth's CSRF token).
 */
import { getConfig } from "@/lib/server/config";
import { handleAuthRequest } from "@/lib/server/auth/route";
import { PEER_ADDRESS_HEADER } from "@/lib/server/peer-address";

let peers = 0;

export class AuthTestClient {
  readonly jar = new Map<string, string>();

  /** The client's network address as lib/server/peer-address.ts would stamp it (a fresh one per client by default). */
  constructor(readonly peer: string = `198.18.${Math.floor(++peers / 250) % 250}.${(peers % 250) + 1}`) {}

  get origin(): string {
    return new URL(getConfig().APP_URL).origin;
  }

  /** The Cookie header for the jar's cookies. */
  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
  }

  /** Store the Set-Cookie headers of a response (expired ones are removed). */
  absorb(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = decodeURIComponent(pair!.slice(eq + 1).trim());
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return response;
  }

  /** Call /api/auth/<path> (path may carry a query). */
  async call(path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
    const url = new URL(`/api/auth/${path}`, this.origin);
    const method = init.method ?? (init.form ? "POST" : "GET");
    const headers: Record<string, string> = { cookie: this.cookieHeader(), [PEER_ADDRESS_HEADER]: this.peer, ...init.headers };
    if (method !== "GET" && method !== "HEAD" && !("Origin" in headers) && !("origin" in headers)) headers.Origin = this.origin;
    let body: string | undefined;
    if (init.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const segments = url.pathname.split("/").slice(3).filter(Boolean);
    return this.absorb(await handleAuthRequest(new Request(url, { method, headers, body }), segments));
  }

  async csrfToken(): Promise<string> {
    const res = await this.call("csrf");
    return ((await res.json()) as { csrfToken: string }).csrfToken;
  }

  /** What /signup does on Continue: POST /api/auth/signin/email. */
  async requestEmailLink(email: string, callbackPath = "/signup?complete=1"): Promise<Response> {
    return this.call("signin/email", {
      form: { email, csrfToken: await this.csrfToken(), callbackUrl: new URL(callbackPath, this.origin).toString(), json: "true" },
    });
  }

  /** What /signup?token=… does once it knows the address: POST /api/auth/callback/email. */
  async completeEmailLink(token: string, email: string, headers?: Record<string, string>): Promise<Response> {
    const query = new URLSearchParams({ token, email });
    const callbackUrl = new URL("/signup?complete=1", this.origin).toString();
    return this.call(`callback/email?${query}`, { method: "POST", form: { callbackUrl }, headers });
  }
}

/** The token of a /signup?token=… link. */
export function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get("token");
  if (!token) throw new Error("link without token");
  return token;
}
