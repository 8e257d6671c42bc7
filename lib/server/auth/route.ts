import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import NextAuth from "next-auth";
import { getConfig } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";
import { errorResponse, jsonError, refusalEvent } from "@/lib/server/http";
import { consumeEmailSignIn } from "@/lib/server/rate-limit";
import { clientKey } from "@/lib/server/client-address";
import { securityEvent } from "@/lib/server/log";
import { assertSameOrigin } from "@/lib/server/auth/session";
import { callbackUrlCookieName, parseCookies } from "@/lib/server/auth/cookies";
import { handoffCookie } from "@/lib/server/auth/desktop";
import { mailboxKey, normalizeEmail } from "@/lib/server/auth/email-address";
import { takeDevelopmentSignInLink } from "@/lib/server/mail";
import { applyNextAuthEnv, buildAuthOptions, type AuthRequestContext } from "@/lib/server/auth/options";
import { getAuthSecret } from "@/lib/server/secret";

/**
 * /api/auth/* (next-auth 4) from a standard Request. E-mail links are never consumed by a GET (mail scanners):
 * the callback GET redirects to /signup?token=…, whose script POSTs.
 */

const MAX_BODY_BYTES = 16 * 1024;

/** Never throws: errors become JSON answers. */
export async function handleAuthRequest(request: Request, segments: string[]): Promise<Response> {
  try {
    return await route(request, segments);
  } catch (error) {
    return errorResponse(error, "auth");
  }
}

async function route(request: Request, segments: string[]): Promise<Response> {
  const [action, providerId] = segments;
  const method = request.method.toUpperCase();
  const url = new URL(request.url);
  const isEmailCallback = action === "callback" && providerId === "email";

  // next-auth's client logger would let anyone write to the server log.
  if (action === "_log" && method === "POST") return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });

  if (method === "GET" || method === "HEAD") {
    if (isEmailCallback) return toSignupPage(url);
    if (method === "HEAD") return new Response(null, { status: 405, headers: { Allow: "GET, POST" } });
  } else if (method === "POST") {
    assertSameOrigin(request);
  } else {
    return jsonError(405, "Method not allowed.", { Allow: "GET, POST" });
  }

  const body = method === "POST" ? await readFormBody(request) : undefined;
  const query: Record<string, string | string[]> = Object.fromEntries(url.searchParams);
  const cookies = parseCookies(request.headers.get("cookie"));
  // next-auth answers an invalid callbackUrl with a logged 500.
  const callbackParam = typeof query.callbackUrl === "string" ? query.callbackUrl : undefined;
  if (callbackParam !== undefined && !isValidCallbackUrl(callbackParam)) {
    return jsonError(400, "Invalid callbackUrl: use a path on this site or an http(s) address.");
  }
  if (typeof body?.callbackUrl === "string" && !isValidCallbackUrl(body.callbackUrl)) {
    return jsonError(400, "Invalid callbackUrl: use a path on this site or an http(s) address.");
  }
  const callbackCookie = cookies[callbackUrlCookieName()];
  if (callbackCookie !== undefined && !isValidCallbackUrl(callbackCookie)) delete cookies[callbackUrlCookieName()];

  if (isEmailCallback) {
    try {
      query.email = normalizeEmail(typeof query.email === "string" ? query.email : "");
    } catch {
      securityEvent("auth.sign_in_failed", { code: "Verification", provider: "email", action: "callback" });
      return redirect(errorPage("Verification", false));
    }
  }

  if (method === "POST" && action === "signin" && providerId === "email") {
    const refusal = await checkEmailRequest(body ?? {}, cookies, clientKey(request));
    if (refusal) return refusal;
    body!.email = normalizeEmail(body!.email!);
  }

  const ctx: AuthRequestContext = {};
  const answer = await runNextAuth({ request, segments, query, body, cookies, ctx });

  const startedAt = (body?.callbackUrl as string | undefined) ?? cookies[callbackUrlCookieName()] ?? "";
  const desktop = pathOf(startedAt) === "/appsignup";
  const location = answer.headers.get("location");
  if (location) {
    const code = errorCodeOf(location);
    if (code) {
      securityEvent("auth.sign_in_failed", { code, provider: providerId ?? null, action: action ?? null });
      answer.headers.set("location", errorPage(code, desktop));
    } else if (ctx.googleIdToken && desktop && action === "callback") {
      answer.headers.append("set-cookie", await handoffCookie(ctx.googleIdToken));
      answer.headers.set("location", new URL("/appsignup?handoff=1", getConfig().APP_URL).toString());
    }
  }
  if (method === "POST" && action === "signin" && providerId === "email") return emailSigninAnswer(answer, body?.email ?? "");
  // docs/product.md §1: nothing set for visitors.
  if (method === "GET" && !["csrf", "signin", "callback"].includes(action ?? "")) return withoutFlowCookies(jsonErrorBody(answer));
  return jsonErrorBody(answer);
}

/** Every error of the API is JSON. */
function jsonErrorBody(answer: Response): Response {
  if (answer.status < 400 || answer.headers.get("content-type")?.includes("application/json")) return answer;
  const headers = new Headers(answer.headers);
  headers.delete("content-type");
  headers.delete("content-length");
  return jsonError(answer.status, answer.status === 400 ? "This sign-in request is not supported." : "The sign-in request failed.", headers);
}

function withoutFlowCookies(answer: Response): Response {
  const cookies = answer.headers.getSetCookie();
  const kept = cookies.filter((c) => !/^(?:__Host-|__Secure-)?next-auth\.(?:csrf-token|callback-url)=/.test(c));
  if (kept.length === cookies.length) return answer;
  const headers = new Headers(answer.headers);
  headers.delete("set-cookie");
  for (const c of kept) headers.append("set-cookie", c);
  return new Response(answer.body, { status: answer.status, headers });
}

function toSignupPage(url: URL): Response {
  const target = new URL("/signup", getConfig().APP_URL);
  const token = url.searchParams.get("token");
  if (token) target.searchParams.set("token", token);
  return redirect(target.toString(), 303);
}

function redirect(location: string, status = 302): Response {
  return new Response(null, { status, headers: { Location: location, "Cache-Control": "private, no-store" } });
}

/** next-auth's own test (next-auth/lib/assert.js): a path, or an absolute http(s) URL. */
function isValidCallbackUrl(url: string): boolean {
  try {
    return /^https?:/.test(new URL(url, url.startsWith("/") ? getConfig().APP_URL : undefined).protocol);
  } catch {
    return false;
  }
}

function pathOf(url: string): string | null {
  try {
    return new URL(url, getConfig().APP_URL).pathname;
  } catch {
    return null;
  }
}

function errorCodeOf(location: string): string | null {
  let target: URL;
  try {
    target = new URL(location, getConfig().APP_URL);
  } catch {
    return null;
  }
  const code = target.searchParams.get("error");
  if (!code) return null;
  const known = ["/api/auth/error", "/api/auth/signin", "/signup", "/appsignup"];
  return known.includes(target.pathname) ? code.slice(0, 64) : null;
}

function errorPage(code: string, desktop: boolean): string {
  const page = new URL(desktop ? "/appsignup" : "/signup", getConfig().APP_URL);
  page.searchParams.set("error", code);
  return page.toString();
}

const tooLarge = () => new AppError("payload_too_large:body", "The request is too large.");

async function readFormBody(request: Request): Promise<Record<string, string>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge();
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  let entries: [string, unknown][];
  if (type.includes("application/json")) {
    try {
      const parsed: unknown = text ? JSON.parse(text) : {};
      entries = parsed && typeof parsed === "object" ? Object.entries(parsed) : [];
    } catch {
      throw new AppError("bad_request:body", "The request body is not valid JSON.");
    }
  } else {
    entries = [...new URLSearchParams(text).entries()];
  }
  const out: Record<string, string> = {};
  for (const [key, value] of entries) if (typeof value === "string" || typeof value === "boolean") out[key] = String(value);
  return out;
}

/** A forged request must not use up an allowance, so the CSRF token is checked before the limit. */
async function checkEmailRequest(
  body: Record<string, string>,
  cookies: Record<string, string>,
  client: string | null,
): Promise<Response | null> {
  if (getConfig().emailDelivery === "disabled") {
    return jsonError(503, "E-mail sign-in is not available on this server. Continue with Google instead.");
  }
  if (!csrfTokenValid(body.csrfToken, cookies)) {
    refusalEvent(403, "auth");
    return jsonError(403, "Your sign-in form expired. Reload the page and try again.");
  }
  const email = normalizeEmail(body.email ?? "");
  await consumeEmailSignIn(mailboxKey(email), client);
  return null;
}

function csrfTokenValid(bodyToken: string | undefined, cookies: Record<string, string>): boolean {
  const name = `${new URL(getConfig().APP_URL).protocol === "https:" ? "__Host-" : ""}next-auth.csrf-token`;
  const [token, hash] = (cookies[name] ?? "").split("|");
  if (!token || !hash || !bodyToken || bodyToken !== token) return false;
  const expected = createHash("sha256").update(`${token}${getAuthSecret()}`).digest("hex");
  return expected.length === hash.length && timingSafeEqual(Buffer.from(expected), Buffer.from(hash));
}

/** In development without mail also `dev_sign_in_link`. */
async function emailSigninAnswer(answer: Response, email: string): Promise<Response> {
  if (!answer.headers.get("content-type")?.includes("application/json")) return answer;
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  for (const cookie of answer.headers.getSetCookie()) headers.append("set-cookie", cookie);
  const { url } = ((await answer.json().catch(() => ({}))) ?? {}) as { url?: string };
  const code = url ? errorCodeOf(url) : "EmailSignin";
  if (!code) {
    const devLink = takeDevelopmentSignInLink(email);
    return Response.json(devLink ? { ok: true, dev_sign_in_link: devLink } : { ok: true }, { headers });
  }
  const status = code === "EmailSignin" ? 502 : 400;
  const message =
    code === "EmailSignin"
      ? "The sign-in e-mail could not be sent. Please try again later."
      : "This e-mail address cannot sign in.";
  return Response.json({ error: message, code }, { status, headers });
}

interface NextAuthCall {
  request: Request;
  segments: string[];
  query: Record<string, string | string[]>;
  body: Record<string, string> | undefined;
  cookies: Record<string, string>;
  ctx: AuthRequestContext;
}

async function runNextAuth(call: NextAuthCall): Promise<Response> {
  applyNextAuthEnv();
  const res = new CollectingResponse();
  const req = {
    method: call.request.method.toUpperCase(),
    headers: Object.fromEntries(call.request.headers),
    cookies: call.cookies,
    query: { ...call.query, nextauth: call.segments },
    body: call.body,
  };
  await (NextAuth as (req: unknown, res: unknown, options: unknown) => Promise<unknown>)(
    req,
    res,
    buildAuthOptions(call.ctx),
  );
  return res.toResponse();
}

class CollectingResponse {
  statusCode = 200;
  private readonly headers = new Map<string, string | string[]>();
  private body: string | null = null;

  status(code: number) {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string | string[]) {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }
  getHeader(name: string) {
    return this.headers.get(name.toLowerCase());
  }
  end() {
    return this;
  }
  json(value: unknown) {
    this.setHeader("content-type", "application/json");
    this.body = JSON.stringify(value);
    return this;
  }
  send(value: unknown) {
    if (value === undefined || value === null) this.body = null;
    else if (typeof value === "string") this.body = value;
    else return this.json(value);
    return this;
  }
  toResponse(): Response {
    const headers = new Headers();
    for (const [name, value] of this.headers) {
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    if (!headers.has("cache-control")) headers.set("cache-control", "private, no-store");
    const nullBody = [204, 301, 302, 303, 307, 308].includes(this.statusCode);
    return new Response(nullBody ? null : this.body, { status: this.statusCode, headers });
  }
}
