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
 * /api/auth/* (next-auth 4), driven from a standard Request so the handler can be called directly
 * in tests: next-auth's App Router entry reads next/headers, its API-route entry does not, so the
 * Request is handed to the latter as a plain object and its answer collected into a Response.
 *
 * Around next-auth:
 * - E-mail links are never consumed by a GET. The e-mailed link opens /signup?token=…; that page's
 *   own script completes sign-in with a same-origin POST to /api/auth/callback/email (with the
 *   address kept in localStorage or typed again). A GET or HEAD of next-auth's callback URL is
 *   redirected to /signup?token=… untouched, so mail scanners that open links use up nothing.
 * - POST /api/auth/signin/email answers JSON errors of its own: 503 when e-mail is off, 400 for an
 *   invalid address, 429 over the per-address limit (lib/server/rate-limit.ts), 502 when sending failed.
 * - Cross-site POSTs are refused (assertSameOrigin), on top of next-auth's CSRF token.
 * - POST /api/auth/_log (next-auth's client logger) is answered 204 and logs nothing.
 * - A Google sign-in started from /appsignup hands its ID token to /appsignup?handoff=1
 *   (lib/server/auth/desktop.ts), and its errors land on /appsignup instead of /signup.
 */

const MAX_BODY_BYTES = 16 * 1024;

/** Handle one request to /api/auth/<segments...>. Never throws: errors become JSON answers. */
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

  // next-auth's client logger (next-auth/react posts its client-side errors here) would let anyone write
  // lines to the server log: it is off. Answered 204 without reading the body or logging.
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
  // next-auth answers an invalid callbackUrl with a 500 and logs it verbatim: refuse it here (400),
  // and drop an invalid callback-URL cookie instead of letting it break every later call.
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
    // The page sends the address as typed or stored; the token's identifier is the normalised one.
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

  // Where the sign-in started decides where it ends: /appsignup (desktop) or /signup.
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
  // next-auth sets its CSRF and callback-URL cookies on every call; a visitor's page asking
  // /api/auth/session must not get cookies (docs/product.md §1: no trackers, nothing set for visitors).
  if (method === "GET" && !["csrf", "signin", "callback"].includes(action ?? "")) return withoutFlowCookies(jsonErrorBody(answer));
  return jsonErrorBody(answer);
}

/**
 * next-auth answers an action it does not know with 400 and a plain-text "Error: This action with HTTP GET
 * is not supported by NextAuth.js": every error of the API is JSON `{ "error": ... }` (found
 * by the OpenAPI fuzzer in e2e/robustness.spec.ts).
 */
function jsonErrorBody(answer: Response): Response {
  if (answer.status < 400 || answer.headers.get("content-type")?.includes("application/json")) return answer;
  const headers = new Headers(answer.headers);
  headers.delete("content-type");
  headers.delete("content-length");
  return jsonError(answer.status, answer.status === 400 ? "This sign-in request is not supported." : "The sign-in request failed.", headers);
}

/** `answer` without next-auth's CSRF-token and callback-URL cookies (its session cookie is kept). */
function withoutFlowCookies(answer: Response): Response {
  const cookies = answer.headers.getSetCookie();
  const kept = cookies.filter((c) => !/^(?:__Host-|__Secure-)?next-auth\.(?:csrf-token|callback-url)=/.test(c));
  if (kept.length === cookies.length) return answer;
  const headers = new Headers(answer.headers);
  headers.delete("set-cookie");
  for (const c of kept) headers.append("set-cookie", c);
  return new Response(answer.body, { status: answer.status, headers });
}

/** The e-mailed link's page, for a GET of next-auth's own callback URL: nothing is consumed. */
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

/** The `error` code of a redirect to next-auth's error or sign-in page or to our sign-in pages. */
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

/** A POST body (form or JSON) as string fields, at most MAX_BODY_BYTES. @throws AppError 413/400 */
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

/**
 * Checks of a sign-in e-mail request before next-auth sees it, in this order: e-mail available,
 * CSRF token valid (so a forged request cannot use up someone's allowance), address valid, limit.
 */
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
  // A bad address (400) and a reached limit (429) are AppErrors, answered by handleAuthRequest.
  const email = normalizeEmail(body.email ?? "");
  await consumeEmailSignIn(mailboxKey(email), client);
  return null;
}

/** next-auth's double-submit CSRF check (cookie "<token>|sha256(<token><secret>)", body token). */
function csrfTokenValid(bodyToken: string | undefined, cookies: Record<string, string>): boolean {
  const name = `${new URL(getConfig().APP_URL).protocol === "https:" ? "__Host-" : ""}next-auth.csrf-token`;
  const [token, hash] = (cookies[name] ?? "").split("|");
  if (!token || !hash || !bodyToken || bodyToken !== token) return false;
  const expected = createHash("sha256").update(`${token}${getAuthSecret()}`).digest("hex");
  return expected.length === hash.length && timingSafeEqual(Buffer.from(expected), Buffer.from(hash));
}

/**
 * next-auth's answer to an e-mail sign-in request, as `{ ok: true }` or `{ error }` JSON; in development
 * without a mail server also the logged link (`dev_sign_in_link`, lib/server/mail.ts), for /signup to show.
 */
async function emailSigninAnswer(answer: Response, email: string): Promise<Response> {
  // A plain form post (no `json`) gets next-auth's redirect as it is.
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

/** Run next-auth's framework-neutral API-route handler on a plain request object; collect its answer. */
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
  await (NextAuth as unknown as (req: unknown, res: unknown, options: unknown) => Promise<unknown>)(
    req,
    res,
    buildAuthOptions(call.ctx),
  );
  return res.toResponse();
}

/** The subset of Node's ServerResponse that next-auth's API-route handler uses. */
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
