import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as checkout } from "@/app/api/create-checkout-session/route";
import { POST as portal } from "@/app/api/customer-portal/route";
import { POST as webhook } from "@/app/api/stripe/webhook/route";
import { GET as stripeStatus } from "@/app/api/check_stripe_status/route";
import { POST as deleteUser } from "@/app/api/delete_user/route";
import { getConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { fromPeer } from "../helpers/peer";
import { makeEvent, signEvent, startFakeStripeServer, type FakeStripeServer } from "../helpers/fake-stripe-server";

/**
 * Checkout, portal, status, webhooks and account deletion through the real route handlers, the real
 * database and the real `stripe` SDK talking over HTTP to the fake Stripe server (STRIPE_API_BASE).
 */
const SECRET = "whsec_test_0123456789abcdef";

/** The form parameters the SDK sent for a Checkout Session, as the fake server parsed them. */
interface CheckoutParams {
  mode: string;
  customer: string;
  client_reference_id: string;
  success_url: string;
  cancel_url: string;
  line_items: Record<string, { price_data: Record<string, unknown> }>;
  subscription_data: { metadata: Record<string, string> };
}
let t: TestDb;
let stripe: FakeStripeServer;

function req(path: string, init: { method?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const origin = new URL(getConfig().APP_URL).origin;
  const headers: Record<string, string> = { Origin: origin, ...init.headers };
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  return new Request(`${origin}${path}`, { method: init.method ?? "POST", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}

async function newUser() {
  const u = await createTestUser();
  return { ...u, cookie: await sessionCookieFor(u.id) };
}

function deliver(event: unknown, opts: { secret?: string; timestamp?: number; tamper?: (body: string) => string } = {}) {
  const { body, signature } = signEvent(event, opts.secret ?? SECRET, opts.timestamp);
  return webhook(
    new Request("http://localhost/api/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: opts.tamper ? opts.tamper(body) : body,
    }),
  );
}

async function status(cookie: string) {
  const res = await stripeStatus(req("/api/check_stripe_status", { method: "GET", cookie }));
  expect(res.status).toBe(200);
  return (await res.json()) as { plan: string; status: string; current_period_end: string | null; cancel_at_period_end: boolean };
}

/** A user who went through checkout: a Stripe customer is stored for them. */
async function customerUser() {
  const u = await newUser();
  const res = await checkout(req("/api/create-checkout-session", { cookie: u.cookie, body: { plan: 1 } }));
  expect(res.status).toBe(200);
  const customer = [...stripe.customers.values()].find((c) => (c.metadata as Record<string, string>).user_id === u.id)!;
  return { ...u, customer: String(customer.id) };
}

beforeAll(async () => {
  stripe = await startFakeStripeServer();
  process.env.STRIPE_SECRET_KEY = "sk_test_fake";
  process.env.STRIPE_WEBHOOK_SECRET = SECRET;
  process.env.STRIPE_API_BASE = stripe.url;
  t = await setupTestDb();
  resetConfigForTests();
});

afterAll(async () => {
  await t.cleanup();
  await stripe.close();
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
  delete process.env.STRIPE_API_BASE;
  delete process.env.COUNTRY_HEADER;
  delete process.env.TRUSTED_PROXIES;
  resetConfigForTests();
});

describe("POST /api/create-checkout-session", () => {
  it("needs a signed-in user (401)", async () => {
    const res = await checkout(req("/api/create-checkout-session", { body: { plan: 1 } }));
    expect(res.status).toBe(401);
  });

  it("refuses a plan outside 1..4 (400)", async () => {
    const u = await newUser();
    for (const plan of [0, 5, "x"]) {
      const res = await checkout(req("/api/create-checkout-session", { cookie: u.cookie, body: { plan } }));
      expect(res.status).toBe(400);
    }
  });

  it("creates a subscription-mode session priced from the config, for the user's customer", async () => {
    process.env.COUNTRY_HEADER = "cf-ipcountry";
    // The country header counts only from a trusted proxy (docs/issues.md #10): here the edge at 10.0.0.1.
    process.env.TRUSTED_PROXIES = "10.0.0.1";
    resetConfigForTests();
    const u = await newUser();
    const res = await checkout(
      req("/api/create-checkout-session", { cookie: u.cookie, body: { plan: 4 }, headers: fromPeer("10.0.0.1", { "cf-ipcountry": "NZ" }) }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; url: string };
    expect(body.url).toBe(`${stripe.url}/checkout/${body.id}`);
    const session = stripe.sessions.get(body.id)!;
    const params = session.params as CheckoutParams;
    expect(params.mode).toBe("subscription");
    expect(params.client_reference_id).toBe(u.id);
    expect(params.line_items["0"]!.price_data).toMatchObject({
      currency: "nzd",
      unit_amount: "51250", // 2049.99 × 0.25
      recurring: { interval: "month", interval_count: "14" },
    });
    expect(params.subscription_data.metadata).toEqual({ user_id: u.id, plan_option: "4" });
    expect(params.success_url).toBe(`${getConfig().APP_URL}/purchase-complete?session_id={CHECKOUT_SESSION_ID}`);
    expect(params.cancel_url).toBe(`${getConfig().APP_URL}/purchase-failed`);
    const customer = stripe.customers.get(String(params.customer))!;
    expect(customer).toMatchObject({ email: u.email, metadata: { user_id: u.id } });

    // A second checkout reuses the same customer.
    const again = await checkout(req("/api/create-checkout-session", { cookie: u.cookie, body: { plan: 1 } }));
    const second = stripe.sessions.get(((await again.json()) as { id: string }).id)!;
    expect(second.customer).toBe(params.customer);
    expect((second.params as CheckoutParams).line_items["0"]!.price_data).toMatchObject({ currency: "usd", unit_amount: "500" });
    // The same header from a client that is not a trusted proxy does not choose the price.
    const forged = await checkout(
      req("/api/create-checkout-session", { cookie: u.cookie, body: { plan: 1 }, headers: fromPeer("198.51.100.4", { "cf-ipcountry": "NZ", "x-forwarded-for": "203.97.1.1" }) }),
    );
    const third = stripe.sessions.get(((await forged.json()) as { id: string }).id)!;
    expect((third.params as CheckoutParams).line_items["0"]!.price_data).toMatchObject({ currency: "usd" });
    delete process.env.COUNTRY_HEADER;
    delete process.env.TRUSTED_PROXIES;
    resetConfigForTests();
  });

  it("answers the spec's failure text when Stripe fails (502)", async () => {
    const u = await newUser();
    stripe.failNext("/v1/customers", 500);
    const res = await checkout(req("/api/create-checkout-session", { cookie: u.cookie, body: { plan: 1 } }));
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: "Failed to initiate checkout. Please try again later." });
  });

  it("without STRIPE_SECRET_KEY says payments are not configured (503), even to visitors", async () => {
    delete process.env.STRIPE_SECRET_KEY;
    resetConfigForTests();
    try {
      const res = await checkout(req("/api/create-checkout-session", { body: { plan: 1 } }));
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(/not configured/);
    } finally {
      process.env.STRIPE_SECRET_KEY = "sk_test_fake";
      resetConfigForTests();
    }
  });
});

describe("webhooks", () => {
  it("a signed subscription event makes the user Pro; check_stripe_status reads it from the database", async () => {
    const u = await customerUser();
    expect(await status(u.cookie)).toEqual({ plan: "Free", status: "inactive", current_period_end: null, cancel_at_period_end: false });
    const sub = stripe.upsertSubscription({ customer: u.customer, status: "active", metadata: { user_id: u.id, plan_option: "1" } });
    const res = await deliver(makeEvent("customer.subscription.created", sub));
    expect(res.status).toBe(200);
    const before = stripe.requests.length;
    const s = await status(u.cookie);
    expect(s).toMatchObject({ plan: "Pro", status: "active", cancel_at_period_end: false });
    expect(s.current_period_end).not.toBeNull();
    expect(stripe.requests.length).toBe(before); // no Stripe call on the status path
  });

  it("refuses a wrong secret, a tampered body and a timestamp more than 5 minutes old or ahead (400), storing nothing", async () => {
    const u = await customerUser();
    const sub = stripe.upsertSubscription({ customer: u.customer, status: "active", metadata: { user_id: u.id } });
    const event = makeEvent("customer.subscription.created", sub);
    expect((await deliver(event, { secret: "whsec_wrong" })).status).toBe(400);
    expect((await deliver(event, { tamper: (b) => b.replace('"active"', '"trialing"') })).status).toBe(400);
    expect((await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 301 })).status).toBe(400);
    expect((await deliver(event, { timestamp: Math.floor(Date.now() / 1000) + 301 })).status).toBe(400);
    expect((await deliver(event, { timestamp: Math.floor(Date.now() / 1000) + 86_400 })).status).toBe(400);
    const unsigned = await webhook(new Request("http://localhost/api/stripe/webhook", { method: "POST", body: JSON.stringify(event) }));
    expect(unsigned.status).toBe(400);
    expect(await t.db.stripeEvent.count({ where: { id: String(event.id) } })).toBe(0);
    expect((await status(u.cookie)).plan).toBe("Free");
  });

  it("accepts a timestamp within 5 minutes of now in either direction (clock skew)", async () => {
    const u = await customerUser();
    const sub = stripe.upsertSubscription({ customer: u.customer, status: "active", metadata: { user_id: u.id } });
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(makeEvent("customer.subscription.created", sub), { timestamp: now + 240 })).status).toBe(200);
    expect((await deliver(makeEvent("customer.subscription.updated", sub), { timestamp: now - 240 })).status).toBe(200);
  });

  it("applies the same event once", async () => {
    const u = await customerUser();
    const sub = stripe.upsertSubscription({ customer: u.customer, status: "active", metadata: { user_id: u.id } });
    const event = makeEvent("customer.subscription.created", sub);
    const first = await deliver(event);
    expect(await first.json()).toEqual({ received: true, outcome: "applied" });
    // Changed at our side since: a replay of the old event must not undo it.
    await t.db.subscription.update({ where: { userId: u.id }, data: { status: "past_due", stripeStateAt: new Date(0) } });
    const second = await deliver(event);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ received: true, outcome: "duplicate" });
    expect((await t.db.subscription.findUnique({ where: { userId: u.id } }))!.status).toBe("past_due");
    expect(await t.db.stripeEvent.count({ where: { id: String(event.id) } })).toBe(1);
  });

  it("the same event delivered twice at once (a retry on another instance): applied once, the other a duplicate", async () => {
    const u = await customerUser();
    const sub = stripe.upsertSubscription({ customer: u.customer, status: "active", metadata: { user_id: u.id } });
    const event = makeEvent("customer.subscription.created", sub);
    const answers = await Promise.all([deliver(event), deliver(event)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const outcomes = (await Promise.all(answers.map((a) => a.json() as Promise<{ outcome: string }>))).map((o) => o.outcome);
    expect(outcomes.sort()).toEqual(["applied", "duplicate"]);
    expect(await t.db.stripeEvent.count({ where: { id: String(event.id) } })).toBe(1);
    expect((await status(u.cookie)).plan).toBe("Pro");
  });

  it("an update arriving after the deletion leaves the subscription canceled", async () => {
    const u = await customerUser();
    const sub = stripe.upsertSubscription({ customer: u.customer, status: "active", metadata: { user_id: u.id } });
    const t0 = Math.floor(Date.now() / 1000);
    await deliver(makeEvent("customer.subscription.created", sub, t0 - 20));
    const deleted = await deliver(makeEvent("customer.subscription.deleted", { ...sub, status: "canceled" }, t0));
    expect(((await deleted.json()) as { outcome: string }).outcome).toBe("applied");
    // Older update, delivered late.
    const stale = await deliver(makeEvent("customer.subscription.updated", { ...sub, status: "active" }, t0 - 10));
    expect(((await stale.json()) as { outcome: string }).outcome).toBe("stale");
    // Same second as the deletion: still never revived.
    const same = await deliver(makeEvent("customer.subscription.updated", { ...sub, status: "active" }, t0));
    expect(((await same.json()) as { outcome: string }).outcome).toBe("terminal");
    expect(await status(u.cookie)).toMatchObject({ plan: "Free", status: "inactive" });
  });

  it("an old subscription's deletion does not end a newer live one", async () => {
    const u = await customerUser();
    const oldSub = stripe.upsertSubscription({ customer: u.customer, status: "active", metadata: { user_id: u.id } });
    const newSub = stripe.upsertSubscription({ customer: u.customer, status: "active", metadata: { user_id: u.id } });
    await deliver(makeEvent("customer.subscription.created", newSub));
    const res = await deliver(makeEvent("customer.subscription.deleted", { ...oldSub, status: "canceled" }));
    expect(((await res.json()) as { outcome: string }).outcome).toBe("other-subscription");
    expect((await status(u.cookie)).plan).toBe("Pro");
  });

  it("checkout.session.completed re-fetches the subscription and links it by client_reference_id", async () => {
    const u = await customerUser();
    const sub = stripe.upsertSubscription({ customer: u.customer, status: "active" }); // no metadata
    const session = { id: "cs_test_x", object: "checkout.session", mode: "subscription", customer: u.customer, client_reference_id: u.id, subscription: sub.id };
    const res = await deliver(makeEvent("checkout.session.completed", session));
    expect(((await res.json()) as { outcome: string }).outcome).toBe("applied");
    expect((await status(u.cookie)).plan).toBe("Pro");
  });

  it("invoice.payment_failed and invoice.paid follow the subscription's state at Stripe", async () => {
    const u = await customerUser();
    const sub = stripe.upsertSubscription({ customer: u.customer, status: "active", metadata: { user_id: u.id } });
    await deliver(makeEvent("customer.subscription.created", sub));
    stripe.upsertSubscription({ id: String(sub.id), customer: u.customer, status: "unpaid" });
    const invoice = { id: "in_1", object: "invoice", customer: u.customer, parent: { type: "subscription_details", subscription_details: { subscription: sub.id } } };
    await deliver(makeEvent("invoice.payment_failed", invoice));
    expect(await status(u.cookie)).toMatchObject({ plan: "Free", status: "unpaid" });
    stripe.upsertSubscription({ id: String(sub.id), customer: u.customer, status: "active" });
    await deliver(makeEvent("invoice.paid", { ...invoice, id: "in_2" }));
    expect(await status(u.cookie)).toMatchObject({ plan: "Pro", status: "active" });
  });

  it("a failing handler answers 500 and stores no event row; Stripe's retry then succeeds", async () => {
    const u = await customerUser();
    const sub = stripe.upsertSubscription({ customer: u.customer, status: "active", metadata: { user_id: u.id } });
    const event = makeEvent("invoice.paid", { id: "in_3", object: "invoice", customer: u.customer, subscription: sub.id });
    stripe.failNext(`/v1/subscriptions/${String(sub.id)}`, 500);
    const failed = await deliver(event);
    expect(failed.status).toBe(500);
    expect(await t.db.stripeEvent.count({ where: { id: String(event.id) } })).toBe(0);
    expect((await status(u.cookie)).plan).toBe("Free");
    const retry = await deliver(event);
    expect(retry.status).toBe(200);
    expect((await status(u.cookie)).plan).toBe("Pro");
  });

  it("acknowledges other event types without effect", async () => {
    const res = await deliver(makeEvent("customer.created", { id: "cus_other", object: "customer" }));
    expect(await res.json()).toEqual({ received: true, outcome: "ignored" });
  });
});

describe("portal and account deletion", () => {
  it("POST /api/customer-portal answers the portal URL for the user's customer; 404 without one", async () => {
    const u = await customerUser();
    const res = await portal(req("/api/customer-portal", { cookie: u.cookie, body: {} }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { url: string }).url).toMatch(new RegExp(`^${stripe.url}/portal/bps_`));
    const call = stripe.requests.findLast((r) => r.path === "/v1/billing_portal/sessions")!;
    expect(call.params).toMatchObject({ customer: u.customer, return_url: `${getConfig().APP_URL}/settings` });

    const fresh = await newUser();
    expect((await portal(req("/api/customer-portal", { cookie: fresh.cookie, body: {} }))).status).toBe(404);
    expect((await portal(req("/api/customer-portal", { body: {} }))).status).toBe(401);
  });

  it("deleting the account cancels the subscription at Stripe; a Stripe failure stops the deletion", async () => {
    const u = await customerUser();
    const sub = stripe.upsertSubscription({ customer: u.customer, status: "active", metadata: { user_id: u.id } });
    await deliver(makeEvent("customer.subscription.created", sub));

    stripe.failNext(`/v1/subscriptions/${String(sub.id)}`, 500);
    const failed = await deleteUser(req("/api/delete_user", { cookie: u.cookie }));
    expect(failed.status).toBe(500);
    expect((await t.db.user.findUnique({ where: { id: u.id } }))!.deletedAt).toBeNull();

    const res = await deleteUser(req("/api/delete_user", { cookie: u.cookie }));
    expect(res.status).toBe(200);
    expect(stripe.subscriptions.get(String(sub.id))!.status).toBe("canceled");
    expect((await t.db.subscription.findUnique({ where: { userId: u.id } }))!.status).toBe("canceled");
  });
});
