/**
 * A fake Stripe API for tests: the real `stripe` SDK talks to it through its host/port/protocol
 * options (STRIPE_API_BASE). It keeps customers, Checkout Sessions, subscriptions and portal
 * sessions in memory, serves a tiny hosted "Checkout" page whose Pay button creates an active
 * subscription and delivers signed webhooks to the app (like Stripe does), and has test controls:
 *
 *   POST /__test/subscriptions {customer, status, metadata?, id?, cancel_at_period_end?}  create or update
 *   POST /__test/fail {path, status, times?}   the next `times` requests whose path starts with `path` fail
 *   GET  /__test/requests                       requests received (method, path, params)
 *
 * Run alone: `npx tsx tests/helpers/fake-stripe-server.ts --port 4510 [--webhook-url URL --webhook-secret S]`.
 */
import http from "node:http";
import { randomBytes } from "node:crypto";
import Stripe from "stripe";

export interface FakeStripeRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
}

export interface FakeStripeServer {
  url: string;
  port: number;
  requests: FakeStripeRequest[];
  customers: Map<string, Record<string, unknown>>;
  sessions: Map<string, Record<string, unknown>>;
  subscriptions: Map<string, Record<string, unknown>>;
  /** Create or update a subscription (status, customer, metadata...) and return it. */
  upsertSubscription(input: { id?: string; customer: string; status: string; metadata?: Record<string, string>; cancel_at_period_end?: boolean }): Record<string, unknown>;
  /** The next `times` requests whose path starts with `path` answer `status`. */
  failNext(path: string, status: number, times?: number): void;
  close(): Promise<void>;
}

/** A Stripe event envelope around `object`, created at `created` (seconds; now by default). */
export function makeEvent(type: string, object: unknown, created = Math.floor(Date.now() / 1000)): Record<string, unknown> {
  return {
    id: `evt_${randomBytes(12).toString("hex")}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created,
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** The JSON body and its Stripe-Signature header (stripe.webhooks.generateTestHeaderString). */
export function signEvent(event: unknown, secret: string, timestamp?: number): { body: string; signature: string } {
  const body = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, ...(timestamp ? { timestamp } : {}) });
  return { body, signature };
}

/** Parse Stripe's form encoding (`a[b][0][c]=x`) into nested objects (arrays as index-keyed objects). */
export function parseStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node = out as Record<string, unknown>;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

const id = (prefix: string) => `${prefix}_${randomBytes(10).toString("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

export async function startFakeStripeServer(
  options: { port?: number; webhookUrl?: string; webhookSecret?: string } = {},
): Promise<FakeStripeServer> {
  const requests: FakeStripeRequest[] = [];
  const customers = new Map<string, Record<string, unknown>>();
  const sessions = new Map<string, Record<string, unknown>>();
  const subscriptions = new Map<string, Record<string, unknown>>();
  const failures: { path: string; status: number; times: number }[] = [];
  let base = "";

  const upsertSubscription: FakeStripeServer["upsertSubscription"] = (input) => {
    const subId = input.id ?? id("sub");
    const existing = subscriptions.get(subId);
    const start = now();
    const sub = {
      id: subId,
      object: "subscription",
      created: start,
      items: { object: "list", data: [{ id: id("si"), object: "subscription_item", current_period_start: start, current_period_end: start + 30 * 86400 }] },
      ...existing,
      customer: input.customer,
      status: input.status,
      cancel_at_period_end: input.cancel_at_period_end ?? false,
      metadata: input.metadata ?? (existing?.metadata as Record<string, string> | undefined) ?? {},
    };
    subscriptions.set(subId, sub);
    return sub;
  };

  const deliver = async (event: Record<string, unknown>) => {
    if (!options.webhookUrl || !options.webhookSecret) return;
    const { body, signature } = signEvent(event, options.webhookSecret);
    const res = await fetch(options.webhookUrl, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature }, body });
    if (!res.ok) throw new Error(`webhook answered ${res.status}`);
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname;
    const raw = await readBody(req);
    const params = req.headers["content-type"]?.includes("json") ? (raw ? (JSON.parse(raw) as Record<string, unknown>) : {}) : parseStripeForm(raw);
    if (!path.startsWith("/__test")) requests.push({ method: req.method ?? "GET", path, params });
    const failure = failures.find((f) => path.startsWith(f.path) && f.times > 0);
    if (failure) {
      failure.times--;
      return json(res, failure.status, { error: { type: "api_error", message: "Injected failure." } }, { "stripe-should-retry": "false" });
    }
    try {
      const m = req.method ?? "GET";
      let match: RegExpExecArray | null;
      if (m === "POST" && path === "/v1/customers") {
        const c = { id: id("cus"), object: "customer", email: params.email ?? null, metadata: params.metadata ?? {} };
        customers.set(c.id, c);
        return json(res, 200, c);
      }
      if (m === "POST" && path === "/v1/checkout/sessions") {
        if (!params.customer || !customers.has(String(params.customer))) return missing(res, "customer");
        const sid = id("cs_test");
        const s = {
          id: sid,
          object: "checkout.session",
          mode: params.mode,
          status: "open",
          customer: params.customer,
          client_reference_id: params.client_reference_id ?? null,
          metadata: params.metadata ?? {},
          subscription: null,
          success_url: params.success_url,
          cancel_url: params.cancel_url,
          url: `${base}/checkout/${sid}`,
          params,
        };
        sessions.set(sid, s);
        return json(res, 200, s);
      }
      if (m === "GET" && (match = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(path))) {
        const s = sessions.get(match[1]!);
        return s ? json(res, 200, s) : missing(res, "checkout session");
      }
      if (m === "POST" && path === "/v1/billing_portal/sessions") {
        if (!customers.has(String(params.customer))) return missing(res, "customer");
        const pid = id("bps");
        return json(res, 200, { id: pid, object: "billing_portal.session", customer: params.customer, return_url: params.return_url, url: `${base}/portal/${pid}` });
      }
      if ((match = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path))) {
        const sub = subscriptions.get(match[1]!);
        if (!sub) return missing(res, "subscription");
        if (m === "GET") return json(res, 200, sub);
        if (m === "DELETE") {
          if (sub.status === "canceled") return missing(res, "subscription");
          sub.status = "canceled";
          sub.canceled_at = now();
          return json(res, 200, sub);
        }
      }
      if (m === "GET" && (match = /^\/checkout\/([\w-]+)$/.exec(path))) {
        const s = sessions.get(match[1]!);
        if (!s) return html(res, 404, "<h1>No such session</h1>");
        return html(
          res,
          200,
          `<main><h1>Fake Stripe Checkout</h1><p data-testid="fake-checkout">${s.id}</p>` +
            `<form method="post" action="/checkout/${s.id}/pay"><button type="submit">Pay</button></form>` +
            `<a href="${String(s.cancel_url)}">Cancel</a></main>`,
        );
      }
      if (m === "POST" && (match = /^\/checkout\/([\w-]+)\/pay$/.exec(path))) {
        const s = sessions.get(match[1]!);
        if (!s) return html(res, 404, "<h1>No such session</h1>");
        const subData = ((s.params as Record<string, unknown>).subscription_data ?? {}) as { metadata?: Record<string, string> };
        const sub = upsertSubscription({ customer: String(s.customer), status: "active", metadata: subData.metadata ?? {} });
        Object.assign(s, { status: "complete", subscription: sub.id });
        await deliver(makeEvent("customer.subscription.created", sub));
        await deliver(makeEvent("checkout.session.completed", s));
        res.writeHead(303, { location: String(s.success_url).replace("{CHECKOUT_SESSION_ID}", s.id as string) });
        return res.end();
      }
      if (m === "GET" && path.startsWith("/portal/")) return html(res, 200, "<main><h1>Fake Stripe Customer Portal</h1></main>");
      if (m === "POST" && path === "/__test/subscriptions") return json(res, 200, upsertSubscription(params as never));
      if (m === "POST" && path === "/__test/fail") {
        failures.push({ path: String(params.path), status: Number(params.status), times: Number(params.times ?? 1) });
        return json(res, 200, { ok: true });
      }
      if (m === "GET" && path === "/__test/requests") return json(res, 200, requests);
      if (m === "GET" && path === "/health") return json(res, 200, { ok: true });
      return json(res, 404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${m}: ${path}).` } });
    } catch (error) {
      return json(res, 500, { error: { type: "api_error", message: error instanceof Error ? error.message : "error" } });
    }
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    port,
    requests,
    customers,
    sessions,
    subscriptions,
    upsertSubscription,
    failNext: (path, status, times = 1) => void failures.push({ path, status, times }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function html(res: http.ServerResponse, status: number, body: string) {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(`<!doctype html><html lang="en"><head><title>Fake Stripe</title></head><body>${body}</body></html>`);
}

function missing(res: http.ServerResponse, what: string) {
  json(res, 404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}.` } });
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (/fake-stripe-server\.[cm]?[jt]s$/.test(process.argv[1] ?? "")) {
  startFakeStripeServer({ port: Number(flag("--port") ?? 4510), webhookUrl: flag("--webhook-url"), webhookSecret: flag("--webhook-secret") })
    .then((server) => {
      console.log(`Fake Stripe listening on ${server.url}`);
      const stop = () => void server.close().then(() => process.exit(0));
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
